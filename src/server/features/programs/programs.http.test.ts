import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { PROGRAM_ERRORS } from "./programs.service";

/**
 * Programs through REST as a client speaks it (rest/programs.ts), with the session cache on as in
 * production: a removal or a departure takes effect on the very next request.
 */
let h: Harness;
let app: FastifyInstance;
beforeAll(async () => {
  h = await createHarness();
  app = await buildApp({
    handle: h.db,
    config: { throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 }, aiModel: null },
    webDir: null,
    sessionCacheMs: 30_000,
  });
  await h.user(); // the first account is the admin
});
afterAll(async () => {
  await app.close();
  await h.close();
});

type Method = "GET" | "POST" | "PATCH" | "DELETE";
const call = (user: TestUser, method: Method, url: string, payload?: object) =>
  app.inject({ method, url, headers: user.headers, payload });

describe("REST /api/programs", () => {
  it("create, join, members, promote, remove and leave, with the product's statuses and words", async () => {
    const chief = await h.user();
    const resident = await h.user({ pgyLevel: "1" });
    const second = await h.user({ pgyLevel: "3" });
    expect((await call(chief, "GET", "/api/programs")).json()).toEqual([]);

    const created = await call(chief, "POST", "/api/programs", {
      name: "Harbor Psychiatry",
      institution: "Harbor Hospital",
    });
    expect(created.statusCode).toBe(201);
    const program = created.json() as { id: string; code: string; role: string };
    expect(program.role).toBe("director");
    expect((await call(chief, "POST", "/api/programs", { name: "Again" })).json()).toEqual({
      message: "Leave your current program first",
    });
    expect((await call(chief, "POST", "/api/programs", { name: "" })).statusCode).toBe(400);

    const unknown = await call(resident, "POST", "/api/programs/join", { code: "ZZZZ-ZZZZ" });
    expect([unknown.statusCode, unknown.json().message]).toEqual([
      404,
      PROGRAM_ERRORS.UNKNOWN_CODE,
    ]);
    for (const r of [resident, second]) {
      const joined = await call(r, "POST", "/api/programs/join", { code: program.code });
      expect([joined.statusCode, joined.json().role, joined.json().code]).toEqual([
        200,
        "resident",
        null,
      ]);
    }
    const twice = await call(resident, "POST", "/api/programs/join", { code: program.code });
    expect(twice.statusCode).toBe(409);

    // Now in the session cache.
    expect((await call(resident, "GET", `/api/programs/${program.id}`)).statusCode).toBe(200);
    const base = `/api/programs/${program.id}`;
    const roster = (await call(chief, "GET", `${base}/members`)).json();
    expect(roster.members.map((m: { pgyLabel: string }) => m.pgyLabel)).toEqual([
      "PGY-1",
      "PGY-2",
      "PGY-3",
    ]);

    // A resident is refused a director's calls.
    for (const [method, url, payload] of [
      ["PATCH", `${base}/members/${second.user.id}`, { role: "director" }],
      ["DELETE", `${base}/members/${second.user.id}`, undefined],
      ["POST", `${base}/code`, undefined],
      ["PATCH", base, { name: "Ours" }],
    ] as const) {
      const res = await call(resident, method, url, payload);
      expect([url, res.statusCode, res.json().message]).toEqual([
        url,
        403,
        "Only the program's directors can do that",
      ]);
    }
    expect(
      (await call(chief, "PATCH", `${base}/members/${second.user.id}`, { role: "x" })).json(),
    ).toEqual({ message: "Role must be director or resident" });

    // The only director cannot leave while others remain.
    const leaving = await call(chief, "POST", `${base}/leave`);
    expect([leaving.statusCode, leaving.json().message]).toEqual([
      409,
      PROGRAM_ERRORS.ONLY_DIRECTOR_LEAVING,
    ]);

    // Removed: the very next request is refused, though the session was cached.
    const removed = await call(chief, "DELETE", `${base}/members/${resident.user.id}`);
    expect(removed.json()).toEqual({ removed: true, userId: resident.user.id });
    expect((await call(resident, "GET", base)).statusCode).toBe(404);
    expect((await call(resident, "GET", "/api/programs")).json()).toEqual([]);

    // Promoted, the second member manages the program; the first director may then leave.
    const promoted = await call(chief, "PATCH", `${base}/members/${second.user.id}`, {
      role: "director",
    });
    expect(promoted.json()).toEqual({ userId: second.user.id, role: "director", changed: true });
    expect((await call(second, "GET", base)).json().code).toBe(program.code);
    const renewed = await call(second, "POST", `${base}/code`);
    expect(renewed.json().code).not.toBe(program.code);
    expect((await call(chief, "POST", `${base}/leave`)).json()).toEqual({
      left: true,
      programDeleted: false,
    });
    expect((await call(chief, "GET", `${base}/members`)).statusCode).toBe(404);
  });

  it("lists every program to admins at /api/admin/programs; GET /api/programs stays the caller's own", async () => {
    const admin = await h.user({ isAdmin: true });
    const chief = await h.user();
    const made = (
      await call(chief, "POST", "/api/programs", { name: "Summit Psychiatry" })
    ).json() as { id: string };
    const all = (await call(admin, "GET", "/api/admin/programs")).json() as { id: string }[];
    expect(all.map((p) => p.id)).toContain(made.id);
    expect((await call(admin, "GET", "/api/programs")).json()).toEqual([]);
    expect((await call(chief, "GET", "/api/admin/programs")).statusCode).toBe(403);
    expect((await call(admin, "GET", `/api/programs/${made.id}`)).statusCode).toBe(404);
  });
});
