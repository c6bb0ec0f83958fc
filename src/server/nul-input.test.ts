/**
 * Issue 24 item 6: input PostgreSQL refuses is a 400, never a 500, and a failed query is logged
 * without its parameters.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appWithCapturedLogs } from "./test/logged-app";
import { createHarness, type Harness, type TestUser } from "./test/harness";
import { NUL_MESSAGE } from "./trpc/init";

const NUL = "\u0000";
let h: Harness;
let app: FastifyInstance;
let owner: TestUser;
let lines: string[] = [];

beforeAll(async () => {
  h = await createHarness();
  owner = await h.user({ username: "nulls" });
  ({ app, lines } = await appWithCapturedLogs(h, "info"));
});
afterAll(async () => {
  await app?.close();
  await h?.close();
});

describe("U+0000 in input", () => {
  it.each([
    [
      "a login name",
      "POST",
      "/api/auth/login",
      { username: `ad${NUL}min`, password: "whatever it is" },
    ],
    [
      "question text",
      "POST",
      "/api/questions",
      {
        text: `What${NUL}?`,
        options: { A: "a", B: "b" },
        correctAnswer: "A",
        part: "1",
        year: 2024,
      },
    ],
    [
      "search text",
      "GET",
      `/api/questions/search?text=lith${encodeURIComponent(NUL)}ium`,
      undefined,
    ],
    [
      "a profile field",
      "PUT",
      "/api/users/profile",
      { email: "n@example.test", institution: `St${NUL}` },
    ],
  ])(
    "%s answers 400 with the product's words and changes nothing",
    async (_what, method, url, payload) => {
      const before = await h.db.db.execute(sql`select count(*)::int as n from questions`);
      const res = await app.inject({
        method: method as "GET",
        url,
        headers: owner.headers,
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(NUL_MESSAGE);
      expect(await h.db.db.execute(sql`select count(*)::int as n from questions`)).toEqual(before);
    },
  );

  it("is dropped from pasted text and file contents instead", async () => {
    const parsed = await owner.caller.parser.questions({
      ocrText: `1. Lith${NUL}ium is used for\nA. mania\nB. nothing`,
      part: "1",
    } as never);
    expect(JSON.stringify(parsed)).not.toContain(NUL);
    expect(JSON.stringify(parsed)).toContain("Lithium");
  });
});

describe("a failed query in the log", () => {
  it("keeps its SQL and none of its parameter values", async () => {
    // Break the table under the service, then send values that would be its parameters.
    await h.db.db.execute(sql`alter table prite_scores rename column notes to notes_gone`);
    try {
      const secret = "Confidential-Note-31337";
      const res = await app.inject({
        method: "POST",
        url: "/api/users/prite-scores",
        headers: owner.headers,
        payload: { year: "2024", overallPercentile: 55, notes: secret },
      });
      expect(res.statusCode).toBe(500);
      const logged = lines.filter((l) => l.includes('"level":50')).join("\n");
      expect(logged).toContain("Failed query");
      expect(logged).toContain("prite_scores");
      expect(logged).not.toContain(secret);
      expect(logged).not.toContain(owner.user.id);
    } finally {
      await h.db.db.execute(sql`alter table prite_scores rename column notes_gone to notes`);
    }
  });
});
