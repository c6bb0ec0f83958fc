import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFromCaller } from "../../../../cli/runtime";
import { formatAudit, readAudit } from "../../../../cli/commands/audit";
import { buildApp } from "../../app";
import { auditEvents } from "../../db/schema";
import { createContextInner } from "../../trpc/context";
import { createCaller } from "../../trpc/router";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { listAudit, recordAudit, SERVER_ORIGIN, sweepAudit, type AuditKind } from "./audit.service";

/**
 * Issue 33 item 6 on both databases: every kind of event is recorded with who, from where and when,
 * through the real procedures; a failed act records nothing; the log is admins' only, paged, swept.
 */

const PASSWORD = "correct horse battery";
const PHONE = "Mozilla/5.0 (iPhone) audit-test-phone";
const LAPTOP = "Mozilla/5.0 (X11; Linux) audit-test-laptop";
const FROM = { ip: "198.51.100.7", userAgent: LAPTOP };

let h: Harness;
let app: FastifyInstance;
let admin: TestUser;
let seq = 0;

async function person(): Promise<TestUser> {
  seq += 1;
  return h.user({ username: `audited${seq}`, password: PASSWORD });
}

async function entries(kind: AuditKind, username?: string) {
  return (await listAudit(h.db.db, { kind, username, limit: 200 })).entries;
}

function signIn(username: string, userAgent: string, forwardedFor = "203.0.113.9") {
  return app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { username, password: PASSWORD },
    headers: { "user-agent": userAgent, "x-forwarded-for": forwardedFor },
  });
}

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user({ password: PASSWORD });
  // One proxy in front, as TRUST_PROXY=1: the address is the one it forwards.
  app = await buildApp({
    handle: h.db,
    config: { throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 }, aiModel: null },
    webDir: null,
    trustProxy: 1,
  });
});
afterAll(async () => {
  await app?.close();
  await h?.close();
});

describe("the audit log records", () => {
  it("a sign-in from a new device, once per device, with the address the proxy forwarded", async () => {
    const u = await person();
    expect((await signIn(u.user.username, PHONE)).statusCode).toBe(200);
    expect((await signIn(u.user.username, PHONE, "203.0.113.10")).statusCode).toBe(200);
    expect((await signIn(u.user.username, "curl/8.5.0", "203.0.113.11")).statusCode).toBe(200);
    const bad = await app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: u.user.username, password: "not the password" },
      headers: { "user-agent": "Mozilla/5.0 never signed in" },
    });
    expect(bad.statusCode).toBe(401);
    const seen = await entries("sign_in.new_device", u.user.username);
    expect(seen.map((e) => [e.userAgent, e.ip, e.username, e.userId])).toEqual([
      ["curl/8.5.0", "203.0.113.11", u.user.username, u.user.id],
      [PHONE, "203.0.113.9", u.user.username, u.user.id],
    ]);
    expect(seen[1]!.detail).toEqual({ method: "password" });
  });

  it("role changes and admin reset links, by whom and about whom", async () => {
    const u = await person();
    const caller = await h.callerFor(admin.user, FROM);
    await caller.admin.setRole({ username: u.user.username, isAdmin: true });
    await caller.admin.setRole({ username: u.user.username, isAdmin: false });
    await caller.admin.resetLink({ username: u.user.username });
    const roles = await entries("role.changed", u.user.username);
    expect(roles.map((e) => [e.username, e.targetUsername, e.detail, e.ip, e.userAgent])).toEqual([
      [admin.user.username, u.user.username, { role: "user" }, FROM.ip, LAPTOP],
      [admin.user.username, u.user.username, { role: "admin" }, FROM.ip, LAPTOP],
    ]);
    const links = await entries("password_reset.link_created", u.user.username);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ username: admin.user.username, ip: FROM.ip });

    // A refused change records nothing: the last admin cannot demote themselves.
    const before = (await entries("role.changed")).length;
    const only = await createHarness();
    try {
      const lone = await only.user();
      const c = await only.callerFor(lone.user, FROM);
      await expect(
        c.admin.setRole({ username: lone.user.username, isAdmin: false }),
      ).rejects.toThrow();
      expect((await listAudit(only.db.db, { limit: 10 })).entries).toEqual([]);
    } finally {
      await only.close();
    }
    expect(await entries("role.changed")).toHaveLength(before);
  });

  it("a completed password reset; a failed one records nothing", async () => {
    const u = await person();
    const link = await (
      await h.callerFor(admin.user, FROM)
    ).admin.resetLink({
      username: u.user.username,
    });
    const token = new URL(link.path, "http://x").searchParams.get("token")!;
    const anon = createCaller(
      createContextInner({ db: h.db.db, ip: "192.0.2.4", userAgent: PHONE }),
    );
    await expect(anon.auth.resetPassword({ token, password: "password" })).rejects.toThrow();
    expect(await entries("password_reset.completed", u.user.username)).toEqual([]);
    await anon.auth.resetPassword({ token, password: "a much newer passphrase" });
    const done = await entries("password_reset.completed", u.user.username);
    expect(done.map((e) => [e.userId, e.ip, e.userAgent, e.detail])).toEqual([
      [u.user.id, "192.0.2.4", PHONE, { link: "admin" }],
    ]);
  });

  it("imports with their count and visibility, and account deletions that outlive the account", async () => {
    const u = await person();
    const caller = await h.callerFor(u.user, FROM);
    const question = (n: number, isPublic: boolean) => ({
      question: {
        text: `Audited import question ${seq}-${n}: which drug is an SSRI?`,
        options: { A: "Sertraline", B: "Haloperidol", C: "Lithium", D: "Clozapine" },
        correctAnswer: "A",
        category: "Psychopharmacology",
        part: "1" as const,
        year: 2024,
        number: null,
        explanation: "",
        isPublic,
      },
      action: "create" as const,
    });
    await caller.imports.commit({
      items: [question(1, true), question(2, false), question(3, false)],
    });
    const imports = await entries("import.committed", u.user.username);
    expect(imports).toHaveLength(1);
    expect(imports[0]!.detail).toMatchObject({ imported: 3, public: 1, private: 2 });
    expect(imports[0]).toMatchObject({ userId: u.user.id, ip: FROM.ip, userAgent: LAPTOP });

    await caller.users.deleteAccount();
    const deleted = await entries("account.deleted", u.user.username);
    expect(deleted).toHaveLength(1);
    // The account is gone; the record of it stays, by name.
    expect(deleted[0]).toMatchObject({ userId: null, username: u.user.username, ip: FROM.ip });
    expect((await entries("import.committed", u.user.username))[0]!.userId).toBeNull();
  });

  it("backups taken by an admin over HTTP", async () => {
    const res = await app.inject({
      url: "/api/admin/backup",
      headers: { ...admin.headers, "user-agent": LAPTOP, "x-forwarded-for": "203.0.113.50" },
    });
    expect(res.statusCode).toBe(200);
    const taken = await entries("backup.taken");
    expect(taken[0]).toMatchObject({
      username: admin.user.username,
      ip: "203.0.113.50",
      userAgent: LAPTOP,
    });
  });
});

describe("reading the audit log", () => {
  it("is for admins only", async () => {
    const u = await person();
    await expect(u.caller.admin.audit({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.anonymous.admin.audit({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("pages newest first with a cursor, filters by user, kind and since; `prite audit --json` reads it all", async () => {
    const base = new Date("2020-01-01T00:00:00Z");
    for (let i = 0; i < 5; i++) {
      await recordAudit(h.db.db, {
        kind: "backup.restored",
        actor: null,
        detail: { n: i },
        origin: SERVER_ORIGIN,
        at: new Date(base.getTime() + i * 60_000),
      });
    }
    const first = await admin.caller.admin.audit({ kind: "backup.restored", limit: 2 });
    expect(first.entries.map((e) => e.detail)).toEqual([{ n: 4 }, { n: 3 }]);
    const second = await admin.caller.admin.audit({
      kind: "backup.restored",
      limit: 2,
      cursor: first.nextCursor!,
    });
    expect(second.entries.map((e) => e.detail)).toEqual([{ n: 2 }, { n: 1 }]);
    const since = await admin.caller.admin.audit({
      kind: "backup.restored",
      since: new Date(base.getTime() + 3 * 60_000),
    });
    expect(since.entries).toHaveLength(2);
    expect(since.nextCursor).toBeNull();

    const api = apiFromCaller(admin.caller);
    const all = await readAudit(api, { kind: "backup.restored" });
    expect(all.map((e) => e.detail)).toEqual([4, 3, 2, 1, 0].map((n) => ({ n })));
    expect(JSON.parse(JSON.stringify(all))[0]).toMatchObject({
      kind: "backup.restored",
      ip: "local",
    });
    expect(formatAudit(all)).toContain("backup.restored");
    const mine = await readAudit(api, { username: admin.user.username.toUpperCase() });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => [e.username, e.targetUsername].includes(admin.user.username))).toBe(
      true,
    );
  });
});

describe("retention", () => {
  it("deletes entries older than AUDIT_RETENTION_DAYS, by the clock it is given", async () => {
    const old = new Date("2019-01-01T00:00:00Z");
    await recordAudit(h.db.db, {
      kind: "backup.taken",
      actor: null,
      origin: SERVER_ORIGIN,
      at: old,
    });
    const keptAt = new Date(old.getTime() + 2 * 86_400_000);
    await recordAudit(h.db.db, {
      kind: "backup.taken",
      actor: null,
      origin: SERVER_ORIGIN,
      at: keptAt,
    });
    const clock = new Date(old.getTime() + 3 * 86_400_000 - 1);
    // Two processes sweeping at once delete it once between them.
    const swept = await Promise.all([sweepAudit(h.db.db, clock, 2), sweepAudit(h.db.db, clock, 2)]);
    expect(swept[0]! + swept[1]!).toBe(1);
    const left = await h.db.db.select().from(auditEvents);
    expect(left.some((e) => e.createdAt.getTime() === old.getTime())).toBe(false);
    expect(left.some((e) => e.createdAt.getTime() === keptAt.getTime())).toBe(true);
  });

  it("is swept by the server itself, on its own clock", async () => {
    const at = new Date("2018-06-01T00:00:00Z");
    await recordAudit(h.db.db, { kind: "backup.taken", actor: null, origin: SERVER_ORIGIN, at });
    const server = await buildApp({
      handle: h.db,
      config: { throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 }, aiModel: null },
      webDir: null,
      auditRetentionDays: 30,
      now: () => new Date(at.getTime() + 31 * 86_400_000),
    });
    await server.close(); // waits for the sweep it started
    const left = await h.db.db.select().from(auditEvents);
    expect(left.some((e) => e.createdAt.getTime() === at.getTime())).toBe(false);
  });
});
