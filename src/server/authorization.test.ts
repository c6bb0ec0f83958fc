import { TRPCError } from "@trpc/server";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "./db/raw";
import { addQuestion } from "./features/study/test-fixtures";
import { createHarness, type Harness, type TestUser } from "./test/harness";
import { appRouter } from "./trpc/router";

/**
 * The authorization matrix (issue 9): every tRPC procedure, read from the router itself, and every REST
 * route, read from the server itself, is called as anonymous, owner, another user and admin. A procedure
 * or route missing from the tables below fails the test, so a new one cannot be forgotten.
 */

type Access = "public" | "user" | "admin";

const PROCEDURES: Record<string, Access> = {
  "auth.register": "public",
  "auth.login": "public",
  "auth.logout": "user",
  "auth.me": "user",
  "auth.changePassword": "user",
  "users.updateProfile": "user",
  "users.updateSettings": "user",
  "users.markScoresOnboardingOffered": "user",
  "users.exportStudyData": "user",
  "users.exportQuestions": "user",
  "users.resetStudyProgress": "user",
  "users.deleteAccount": "user",
  "scores.list": "user",
  "scores.get": "user",
  "scores.create": "user",
  "scores.update": "user",
  "scores.delete": "user",
  "admin.users": "admin",
  "admin.stats": "admin",
  "admin.setRole": "admin",
  "questions.list": "user",
  "questions.search": "user",
  "questions.categories": "user",
  "questions.categoryStats": "user",
  "questions.get": "user",
  "questions.create": "user",
  "questions.update": "user",
  "questions.delete": "user",
  "questions.bulkCreate": "user",
  "study.due": "user",
  "study.startSession": "user",
  "study.finishSession": "user",
  "study.answer": "user",
  "study.rate": "user",
  "stats.summary": "user",
  "stats.session": "user",
  "stats.comparative": "user",
  "explanations.status": "user",
  "explanations.generate": "user",
  "explanations.save": "user",
  "imports.checkDuplicates": "user",
  "imports.commit": "user",
  "answerKeys.list": "user",
  "answerKeys.get": "user",
  "answerKeys.save": "user",
  "answerKeys.importText": "user",
  "answerKeys.delete": "user",
  "answerKeys.applyToQuestions": "user",
  "ai.status": "user",
  "ai.process": "user",
  "parser.questions": "user",
};

/** REST routes that answer without a session. */
const PUBLIC_REST = new Set(["GET /api/health", "POST /api/auth/register", "POST /api/auth/login"]);
const ADMIN_REST = /^\/api\/admin\//;

/** The tables that hold user data: a refused call must leave every one of them as it was. */
const DATA_TABLES = [
  "users",
  "questions",
  "study_states",
  "reviews",
  "study_sessions",
  "prite_scores",
  "answer_keys",
];

let h: Harness;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let ids: {
  privateQ: string;
  publicQ: string;
  score: string;
  session: string;
};

type AnyCaller = Record<string, Record<string, (input?: unknown) => Promise<unknown>>>;

function call(caller: unknown, path: string, input?: unknown): Promise<unknown> {
  const [area, name] = path.split(".") as [string, string];
  return (caller as AnyCaller)[area]![name]!(input);
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "OK";
  } catch (err) {
    if (err instanceof TRPCError) return err.code;
    throw err;
  }
}

async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const table of DATA_TABLES) {
    const [row] = await queryRows<{ digest: string | null }>(
      h.db.db,
      sql.raw(
        `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${table} t`,
      ),
    );
    parts.push(`${table}:${row?.digest}`);
  }
  return parts.join(" ");
}

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user(); // the first account is the admin
  owner = await h.user();
  other = await h.user();
  const privateQ = await addQuestion(h.db.db, owner.user.id, { isPublic: false });
  const publicQ = await addQuestion(h.db.db, owner.user.id, { isPublic: true });
  const score = (await owner.caller.scores.create({ year: 2024, overallPercentile: 55 })) as {
    _id?: string;
    id?: string;
  };
  const started = await owner.caller.study.startSession();
  await owner.caller.answerKeys.save({ part: "1", year: 2024, answers: { "1": "B" } });
  ids = {
    privateQ: privateQ.id,
    publicQ: publicQ.id,
    score: (score._id ?? score.id)!,
    session: started.session!.id,
  };
});
afterAll(async () => {
  await h.close();
});

describe("every tRPC procedure", () => {
  const paths = Object.keys(appRouter._def.procedures).sort();

  it("has an expected access level in this test", () => {
    expect(paths).toEqual(Object.keys(PROCEDURES).sort());
  });

  it("refuses anonymous callers unless public, and writes nothing", async () => {
    const before = await snapshot();
    for (const path of paths) {
      if (PROCEDURES[path] === "public") continue;
      expect([path, await codeOf(call(h.anonymous, path, {}))]).toEqual([path, "UNAUTHORIZED"]);
    }
    expect(await snapshot()).toBe(before);
  });

  it("refuses signed-in users on admin procedures, and writes nothing", async () => {
    const before = await snapshot();
    for (const path of paths) {
      if (PROCEDURES[path] !== "admin") continue;
      const input =
        path === "admin.setRole" ? { username: other.user.username, isAdmin: true } : {};
      expect([path, await codeOf(call(owner.caller, path, input))]).toEqual([path, "FORBIDDEN"]);
    }
    expect(await snapshot()).toBe(before);
  });

  it("lets admins use admin procedures", async () => {
    expect(await codeOf(admin.caller.admin.users())).toBe("OK");
    expect(await codeOf(admin.caller.admin.stats())).toBe("OK");
  });
});

describe("objects of another user", () => {
  /**
   * [procedure, input, expected for another user, expected for an admin (who has no special rights over
   * other people's questions or records)]. NOT_FOUND where the object is invisible to the caller,
   * FORBIDDEN where it is visible but not theirs to change.
   */
  const cases = (): [string, unknown, string][] => [
    ["questions.get", { id: ids.privateQ }, "NOT_FOUND"],
    ["questions.update", { id: ids.privateQ, data: { text: "stolen" } }, "NOT_FOUND"],
    ["questions.update", { id: ids.publicQ, data: { text: "stolen" } }, "FORBIDDEN"],
    ["questions.delete", { id: ids.privateQ }, "NOT_FOUND"],
    ["questions.delete", { id: ids.publicQ }, "FORBIDDEN"],
    ["study.answer", { questionId: ids.privateQ, selected: ["B"], timeSpentMs: 1000 }, "NOT_FOUND"],
    ["study.rate", { questionId: ids.privateQ, difficulty: 1 }, "NOT_FOUND"],
    ["study.finishSession", { sessionId: ids.session }, "NOT_FOUND"],
    ["stats.session", { sessionId: ids.session }, "NOT_FOUND"],
    ["explanations.save", { questionId: ids.privateQ, explanation: "mine now" }, "NOT_FOUND"],
    ["explanations.save", { questionId: ids.publicQ, explanation: "mine now" }, "FORBIDDEN"],
    ["scores.get", { id: ids.score }, "NOT_FOUND"],
    ["scores.update", { id: ids.score, year: 2024, overallPercentile: 1 }, "NOT_FOUND"],
    ["scores.delete", { id: ids.score }, "NOT_FOUND"],
    ["answerKeys.delete", { part: "1", year: 2024 }, "NOT_FOUND"],
  ];

  it("answers 404 when invisible and 403 when visible but not theirs, and writes nothing", async () => {
    const before = await snapshot();
    for (const actor of [other, admin]) {
      for (const [path, input, expected] of cases()) {
        expect([path, input, await codeOf(call(actor.caller, path, input))]).toEqual([
          path,
          input,
          expected,
        ]);
      }
    }
    expect(await snapshot()).toBe(before);
  });

  it("never shows another user's private question, key or records in lists", async () => {
    const seen = JSON.stringify([
      await other.caller.questions.list(),
      await other.caller.questions.search({ q: "which is right", visibility: "all" } as never),
      await other.caller.answerKeys.list(),
      await other.caller.answerKeys.get({ part: "1", year: 2024 }),
      await other.caller.scores.list(),
    ]);
    expect(seen).not.toContain(ids.privateQ);
    expect(seen).not.toContain(ids.score);
    expect(seen).toContain(ids.publicQ);
  });

  it("refuses merging an import into another user's question", async () => {
    const before = await snapshot();
    const question = {
      text: "An imported question",
      options: { A: "a", B: "b" },
      correctAnswer: "A",
      part: "1",
      year: 2024,
    };
    for (const targetId of [ids.privateQ, ids.publicQ]) {
      const code = await codeOf(
        other.caller.imports.commit({
          items: [{ question, action: { merge: "newer", targetId } }],
        } as never),
      );
      expect(["FORBIDDEN", "NOT_FOUND"]).toContain(code);
    }
    expect(await snapshot()).toBe(before);
  });

  it("lets the owner do all of it", async () => {
    expect(await codeOf(owner.caller.questions.get({ id: ids.privateQ }))).toBe("OK");
    expect(await codeOf(owner.caller.scores.get({ id: ids.score }))).toBe("OK");
    expect(await codeOf(owner.caller.stats.session({ sessionId: ids.session }))).toBe("OK");
  });
});

describe("every REST route", () => {
  const fill = (url: string) =>
    url
      .replace(":part", "1")
      .replace(":year", "2024")
      .replace(":id", "00000000-0000-4000-8000-000000000000");

  it("answers 401 without a session unless public, 403 to non-admins on admin routes, and writes nothing", async () => {
    const app = await h.app();
    const routes = app.routeTable.filter(
      (r) => r.url.startsWith("/api/") && r.method !== "HEAD" && r.method !== "OPTIONS",
    );
    expect(routes.length).toBeGreaterThan(30);
    const before = await snapshot();
    for (const { method, url } of routes) {
      const key = `${method} ${url}`;
      const anonymous = await app.inject({
        method: method as "GET",
        url: fill(url),
        payload: method === "GET" || method === "DELETE" ? undefined : {},
      });
      if (PUBLIC_REST.has(key)) {
        expect([key, anonymous.statusCode]).not.toEqual([key, 401]);
        continue;
      }
      expect([key, anonymous.statusCode]).toEqual([key, 401]);
      expect(anonymous.json()).toHaveProperty("message");
      if (ADMIN_REST.test(url)) {
        const asUser = await app.inject({
          method: method as "GET",
          url: fill(url),
          headers: owner.headers,
        });
        expect([key, asUser.statusCode]).toEqual([key, 403]);
      }
    }
    // Registering with an empty body is refused too: nothing may have been written.
    expect(await snapshot()).toBe(before);
  });

  it("answers 404 for another user's private question and 403 for their public one", async () => {
    const app = await h.app();
    const before = await snapshot();
    const send = (method: "GET" | "PUT" | "DELETE" | "PATCH", url: string, payload?: object) =>
      app.inject({ method, url, headers: other.headers, payload });
    expect((await send("GET", `/api/questions/${ids.privateQ}`)).statusCode).toBe(404);
    expect((await send("PUT", `/api/questions/${ids.privateQ}`, { text: "x" })).statusCode).toBe(
      404,
    );
    expect((await send("PUT", `/api/questions/${ids.publicQ}`, { text: "x" })).statusCode).toBe(
      403,
    );
    expect((await send("DELETE", `/api/questions/${ids.privateQ}`)).statusCode).toBe(404);
    expect((await send("DELETE", `/api/questions/${ids.publicQ}`)).statusCode).toBe(403);
    expect(
      (await send("PATCH", `/api/questions/${ids.privateQ}/study`, { difficulty: 1 })).statusCode,
    ).toBe(404);
    expect((await send("GET", `/api/users/prite-scores/${ids.score}`)).statusCode).toBe(404);
    expect(
      (
        await send("PUT", `/api/users/prite-scores/${ids.score}`, {
          year: 2024,
          overallPercentile: 1,
        })
      ).statusCode,
    ).toBe(404);
    expect((await send("DELETE", `/api/users/prite-scores/${ids.score}`)).statusCode).toBe(404);
    expect((await send("DELETE", `/api/answer-keys/1/2024`)).statusCode).toBe(404);
    expect(await snapshot()).toBe(before);
  });
});
