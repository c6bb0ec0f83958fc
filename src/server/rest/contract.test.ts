import fs from "node:fs";
import path from "node:path";
import { MockLanguageModelV3 } from "ai/test";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restReadmeSection } from "../../../scripts/rest-readme";
import { buildApp } from "../app";
import { setQuestionMedia, storeMedia } from "../features/media/media.service";
import { makeProgram, putInProgram } from "../test/programs.fixtures";
import { validQuestion } from "../features/questions/questions.fixtures";
import { addFlashcard } from "../features/study/test-fixtures";
import { createHarness, type Harness } from "../test/harness";
import { modelReply } from "../test/model";
import {
  callKey,
  checkShape,
  errorBodyKeys,
  README_BEGIN,
  README_END,
  REST_CALLS,
  type RestCall,
} from "./contract";
import { registerRestRoutes } from "./index";

/**
 * The REST contract (docs/product/rest-api.md and ours), through HTTP as a client speaks it, driven by the table of
 * `contract.ts`: each call's status and the shape of what it answers, 401 without a valid token, the
 * failure body, CORS for an allowed origin. A change of shape anywhere fails here.
 */

const ORIGIN = "https://client.example.org";
const MODEL_REPLY = JSON.stringify({
  questions: [
    {
      number: 1,
      text: "Which drug causes agranulocytosis?",
      options: { A: "Clozapine", B: "Sertraline", C: "Lithium", D: "Bupropion", E: "" },
      correctAnswer: "A",
      explanation: "",
      category: "Psychopharmacology",
    },
  ],
});
const OCR_TEXT = fs
  .readFileSync(
    path.join(process.cwd(), "fixtures", "real", "ncvec_extra_class_pool_2024.txt"),
    "utf8",
  )
  .split(/\n\s*\n/)
  .slice(0, 2)
  .join("\n\n");

interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
}

let h: Harness;
let app: FastifyInstance;
let base: string;
let seq = 0;

async function send(
  method: string,
  url: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers["x-auth-token"] = opts.token;
  const hasBody = opts.body !== undefined;
  if (hasBody) headers["content-type"] = "application/json";
  const res = await fetch(base + url, {
    method,
    headers,
    body: hasBody ? JSON.stringify(opts.body) : undefined,
  });
  if (/^image\//.test(res.headers.get("content-type") ?? "")) {
    return {
      status: res.status,
      headers: res.headers,
      body: new Uint8Array(await res.arrayBuffer()),
    };
  }
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

async function ok(method: string, url: string, token: string, body?: unknown) {
  const res = await send(method, url, { token, body });
  if (res.status >= 300)
    throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown> & { _id: string };
}

async function register(prefix: string) {
  seq += 1;
  const username = `${prefix}${seq}`;
  const res = await send("POST", "/api/auth/register", {
    body: {
      username,
      email: `${username}@example.test`,
      password: "correct horse battery",
      pgyLevel: "2",
    },
  });
  const body = res.body as { token: string };
  if (!body.token) throw new Error(`register ${username}: ${JSON.stringify(res.body)}`);
  return { username, token: body.token };
}

const score = (overrides: Record<string, unknown> = {}) => ({
  year: String(new Date().getFullYear() - 1),
  overallPercentile: 62,
  psychiatryPercentile: 70,
  neurosciencePercentile: 45,
  somaPercentile: null,
  growthPercentile: null,
  sections: [{ name: "Child", percentile: 50 }],
  notes: "steady",
  ...overrides,
});

let admin: { username: string; token: string };
let member: { username: string; token: string };
let revoked: string;
let questionId: string;
let flashcardId: string;

/** The admin reports a new question of the member's; answers the report's id. */
async function adminReportsMemberQuestion(): Promise<string> {
  const q = await ok("POST", "/api/questions", member.token, validQuestion({ isPublic: true }));
  const { report } = (await ok("POST", `/api/questions/${q._id}/reports`, admin.token, {
    kind: "unclear",
    comment: "Two options say the same",
  })) as unknown as { report: { id: string } };
  return report.id;
}

interface Example {
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
  /** Whose token: the member's unless said. */
  token?: string;
  /** The list the answer must not leave empty (a shape check of `[]` proves little); default: the body when it is an array. */
  items?: (body: never) => unknown;
}

/** One request per call of the table, run in table order. */
const EXAMPLES: Record<string, () => Promise<Example>> = {
  "POST /api/auth/register": async () => {
    seq += 1;
    return {
      body: {
        username: `newcomer${seq}`,
        email: `newcomer${seq}@example.test`,
        password: "correct horse battery",
        pgyLevel: "Fellow",
      },
    };
  },
  "POST /api/auth/login": async () => ({
    body: { username: member.username, password: "correct horse battery" },
  }),
  "GET /api/auth/me": async () => ({}),
  "GET /api/questions": async () => ({ query: "page=1&pageSize=10" }),
  "GET /api/questions/due": async () => ({}),
  "GET /api/questions/search": async () => ({ query: "text=medication&part=1" }),
  "GET /api/questions/category-stats": async () => ({}),
  // Issue 32: a director of a program with one resident (the member) reads its dashboard.
  "GET /api/programs/:id/report": async () => {
    const chief = await register("programchief");
    const programId = await makeProgram(h.db.db);
    await putInProgram(
      h.db.db,
      (await ok("GET", "/api/auth/me", chief.token))._id,
      programId,
      "director",
    );
    return { params: { id: programId }, token: chief.token };
  },
  "POST /api/parser/questions": async () => ({ body: { ocrText: OCR_TEXT, part: "1" } }),
  "POST /api/questions/bulk": async () => ({
    body: {
      questions: [
        validQuestion({ text: "Which receptor does clozapine block most?", number: 21 }),
        validQuestion({ text: "Which test screens for delirium?", number: 22 }),
      ],
    },
  }),
  "POST /api/questions": async () => ({ body: validQuestion({ text: "A question saved alone" }) }),
  "PUT /api/questions/:id": async () => ({
    params: { id: questionId },
    body: validQuestion({ explanation: "Edited.", isPublic: true }),
  }),
  "PATCH /api/questions/:id/study": async () => ({
    params: { id: questionId },
    body: { difficulty: 1 },
  }),
  // Issue 36 item 4: a question edited once has two versions; restoring the first makes a third.
  "GET /api/questions/:id/history": async () => ({ params: { id: questionId } }),
  "POST /api/questions/:id/history/:version/restore": async () => {
    const id = (await ok("POST", "/api/questions", member.token, validQuestion()))._id;
    await ok("PUT", `/api/questions/${id}`, member.token, { correctAnswer: "C" });
    return { params: { id, version: "1" }, body: {} };
  },
  "POST /api/study/sync": async () => ({
    body: {
      reviews: [
        {
          id: crypto.randomUUID(),
          questionId,
          selected: ["A"],
          timeSpentMs: 9_000,
          reviewedAt: new Date(Date.now() - 60_000).toISOString(),
          difficulty: 1,
        },
      ],
    },
  }),
  "POST /api/questions/:id/flashcard-rating": async () => ({
    params: { id: flashcardId },
    body: { rating: "good", timeSpentMs: 4_000 },
  }),
  "GET /api/questions/:id/next-intervals": async () => ({ params: { id: flashcardId } }),
  "GET /api/users/prite-scores": async () => ({
    items: (b: { scores: unknown[] }) => b.scores,
  }),
  "GET /api/users/prite-scores/:id": async () => ({ params: { id: await scoreId() } }),
  "POST /api/users/prite-scores": async () => ({ body: score() }),
  "PUT /api/users/prite-scores/:id": async () => ({
    params: { id: await scoreId() },
    body: score({ overallPercentile: 80, notes: "better" }),
  }),
  "DELETE /api/users/prite-scores/:id": async () => ({ params: { id: await scoreId() } }),
  "POST /api/explanation/generate": async () => ({
    body: { question: "Which letter?", options: { A: "alpha", B: "beta" }, correctAnswer: "B" },
  }),
  "POST /api/explanation/save": async () => ({
    body: { questionId, explanation: "Because lithium." },
  }),
  "POST /api/openai": async () => ({ body: { text: OCR_TEXT, format: "json" } }),
  "GET /api/stats/comparative": async () => ({}),
  "PUT /api/users/profile": async () => ({
    body: { email: `${member.username}@example.org`, pgyLevel: "3", institution: "General" },
  }),
  "PUT /api/users/settings": async () => ({
    body: { settings: { shareUsageData: true, publicProfile: true } },
  }),
  "GET /api/users/export/study-data": async () => ({}),
  "GET /api/users/export/questions": async () => ({
    items: (b: { questions: unknown[] }) => b.questions,
  }),
  "GET /api/users/export/anki": async () => ({}),
  "POST /api/users/reset-study-progress": async () => ({}),
  "DELETE /api/users/account": async () => ({ token: (await register("leaver")).token }),
  "GET /api/admin/users": async () => ({ token: admin.token }),

  "POST /api/auth/logout": async () => ({
    token: (await ok("POST", "/api/auth/login", "", loginBody())).token as string,
  }),
  "GET /api/questions/categories": async () => ({}),
  "GET /api/questions/:id": async () => ({ params: { id: questionId } }),
  "GET /api/questions/:id/stats": async () => ({ params: { id: questionId } }),
  "DELETE /api/questions/:id": async () => ({
    params: { id: (await ok("POST", "/api/questions", member.token, validQuestion()))._id },
  }),
  "GET /api/admin/stats": async () => ({ token: admin.token }),
  // Issue 33 (rest/password-reset.ts).
  "POST /api/auth/forgot-password": async () => ({ body: { email: "nobody@example.test" } }),
  "POST /api/auth/reset-password": async () => {
    const { username } = await register("forgetful");
    const link = await ok("POST", "/api/admin/users/reset-link", admin.token, { username });
    const token = new URLSearchParams(String(link.path).split("?")[1]).get("token");
    return { body: { token, password: "a brand new passphrase" } };
  },
  "GET /api/auth/sessions": async () => ({}),
  "POST /api/auth/sessions/sign-out-others": async () => ({
    token: (await register("many")).token,
  }),
  "POST /api/admin/users/reset-link": async () => ({
    token: admin.token,
    body: { username: (await register("locked-out")).username },
  }),
  "GET /api/answer-keys": async () => ({}),
  "GET /api/answer-keys/:part/:year": async () => ({ params: { part: "1", year: "2024" } }),
  "POST /api/answer-keys": async () => ({
    body: { part: "1", year: 2024, answers: { "7": "B", "8": "C" } },
  }),
  "POST /api/answer-keys/:part/:year/apply": async () => ({
    params: { part: "1", year: "2024" },
    body: { overwrite: true },
  }),
  "DELETE /api/answer-keys/:part/:year": async () => ({ params: { part: "1", year: "2024" } }),

  "POST /api/exams": async () => ({ body: { size: 5, mode: "tutor" } }),
  "GET /api/exams": async () => ({}),
  "GET /api/exams/:id": async () => ({ params: { id: (await memberExam()).id } }),
  "DELETE /api/exams/:id": async () => ({ params: { id: (await memberExam()).id } }),
  "POST /api/exams/:id/answer": async () => {
    const exam = await memberExam();
    return { params: { id: exam.id }, body: { questionId: exam.questionId, selected: ["B"] } };
  },
  "POST /api/exams/:id/flag": async () => {
    const exam = await memberExam();
    return { params: { id: exam.id }, body: { questionId: exam.questionId, flagged: true } };
  },
  "POST /api/exams/:id/eliminate": async () => {
    const exam = await memberExam();
    return { params: { id: exam.id }, body: { questionId: exam.questionId, eliminated: ["A"] } };
  },
  "POST /api/exams/:id/submit": async () => ({ params: { id: (await memberExam()).id } }),
  "GET /api/exams/:id/report": async () => ({ params: { id: await finishedExam() } }),
  "GET /api/exams/:id/review": async () => ({
    params: { id: await finishedExam() },
    query: "filter=incorrect",
  }),
  "POST /api/exams/:id/study-incorrect": async () => ({ params: { id: await finishedExam() } }),
  "POST /api/exams/:id/share": async () => ({ params: { id: (await memberExam()).id } }),
  "GET /api/programs/:id/assignments": async () => ({
    params: { id: (await studySet()).id },
    token: admin.token,
    items: (body: { assignments: unknown[] }) => body.assignments,
  }),
  "POST /api/programs/:id/assignments": async () => ({
    params: { id: await adminProgram() },
    token: admin.token,
    body: { kind: "study", categories: ["Ethics"], count: 10, due: "2099-01-01" },
  }),
  "PATCH /api/programs/:id/assignments/:assignmentId": async () => ({
    params: await studySet(),
    token: admin.token,
    body: { closed: true },
  }),
  // Issue 36: reports. The member reports the admin's public question; the admin reports the member's.
  "POST /api/questions/:id/reports": async () => ({
    params: {
      id: (await ok("POST", "/api/questions", admin.token, validQuestion({ isPublic: true })))._id,
    },
    body: { kind: "wrong_answer", comment: "B is right, not A" },
  }),
  "GET /api/reports": async () => {
    await adminReportsMemberQuestion();
    return { query: "open=true", items: (b: { reports: unknown[] }) => b.reports };
  },
  "GET /api/reports/mine": async () => ({}),
  "POST /api/reports/:id/resolve": async () => ({
    params: { id: await adminReportsMemberQuestion() },
    body: { outcome: "answered", note: "The key is right: see the explanation" },
  }),
  "POST /api/exams/join": async () => ({ body: { code: await mockCode(admin.token) } }),
  "GET /api/exams/mocks": async () => {
    await mockCode(member.token);
    return {};
  },
  "GET /api/exams/mocks/:code/results": async () => ({
    params: { code: await mockCode(member.token) },
  }),
  "POST /api/exams/mocks/:code/close": async () => ({
    params: { code: await mockCode(member.token) },
  }),
  "GET /api/questions/sources": async () => {
    await ok("POST", "/api/questions", member.token, {
      questionType: "flashcard",
      front: "What does <b>ANC</b> stand for?",
      back: "Absolute neutrophil count",
      part: "1",
      year: 2024,
      source: "Pharm deck",
    });
    return {};
  },
  "GET /api/media/:sha256": async () => {
    // An image on the member's own question (the import pipeline is what attaches images).
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const { sha256 } = await storeMedia(h.db.db, { bytes, uploadedBy: null });
    await setQuestionMedia(h.db.db, questionId, [sha256]);
    return { params: { sha256 } };
  },
  "GET /api/admin/mock-exams": async () => {
    await mockCode(member.token);
    return { token: admin.token };
  },
  // Issue 32 (rest/programs.ts): a director's program, and residents who join it.
  "GET /api/programs": async () => ({ token: (await directorsProgram()).token }),
  "POST /api/programs": async () => ({
    token: (await register("founder")).token,
    body: { name: "Riverside Psychiatry", institution: "Riverside University" },
  }),
  "POST /api/programs/join": async () => ({
    token: (await register("joiner")).token,
    body: { code: (await directorsProgram()).code },
  }),
  "GET /api/programs/:id": async () => {
    const p = await directorsProgram();
    return { token: p.token, params: { id: p.id } };
  },
  "PATCH /api/programs/:id": async () => {
    const p = await directorsProgram();
    return { token: p.token, params: { id: p.id }, body: { inactiveDays: 21 } };
  },
  "POST /api/programs/:id/leave": async () => {
    const p = await directorsProgram();
    return { token: (await programResident()).token, params: { id: p.id } };
  },
  "POST /api/programs/:id/code": async () => {
    const p = await directorsProgram();
    return { token: p.token, params: { id: p.id } };
  },
  "GET /api/programs/:id/members": async () => {
    const p = await directorsProgram();
    return {
      token: p.token,
      params: { id: p.id },
      items: (b: { members: unknown[] }) => b.members,
    };
  },
  "PATCH /api/programs/:id/members/:userId": async () => {
    const p = await directorsProgram();
    const r = await programResident();
    return { token: p.token, params: { id: p.id, userId: r.id }, body: { role: "director" } };
  },
  "DELETE /api/programs/:id/members/:userId": async () => {
    const p = await directorsProgram();
    const r = await programResident();
    return { token: p.token, params: { id: p.id, userId: r.id } };
  },
  "GET /api/admin/programs": async () => {
    await directorsProgram();
    return { token: admin.token };
  },
};

let program: { token: string; id: string; code: string } | undefined;

/** A program made by its own director (made once; the code read afresh, as renewing changes it). */
async function directorsProgram(): Promise<{ token: string; id: string; code: string }> {
  if (!program) {
    const { token } = await register("director");
    const made = await ok("POST", "/api/programs", token, { name: "Lakeside Psychiatry" });
    program = { token, id: String(made.id), code: String(made.code) };
  }
  const [mine] = (await ok("GET", "/api/programs", program.token)) as unknown as {
    code: string;
  }[];
  program.code = mine!.code;
  return program;
}

/** A new resident of that program, with their user id. */
async function programResident(): Promise<{ token: string; id: string }> {
  const { token } = await register("trainee");
  await ok("POST", "/api/programs/join", token, { code: (await directorsProgram()).code });
  return { token, id: (await ok("GET", "/api/auth/me", token))._id };
}

/** A running tutor exam of the member's and its first question. */
async function memberExam(token = member.token): Promise<{ id: string; questionId: string }> {
  const created = (await ok("POST", "/api/exams", token, {
    size: 5,
    mode: "tutor",
  })) as unknown as {
    exam: { id: string; questions: { questionId: string }[] };
  };
  return { id: created.exam.id, questionId: created.exam.questions[0]!.questionId };
}

/** A submitted exam of the member's with one wrong answer. */
async function finishedExam(): Promise<string> {
  const exam = await memberExam();
  await ok("POST", `/api/exams/${exam.id}/answer`, member.token, {
    questionId: exam.questionId,
    selected: ["A"],
  });
  await ok("POST", `/api/exams/${exam.id}/submit`, member.token);
  return exam.id;
}

/** The join code of a mock exam shared by the token's user (the member's public question is in it). */
async function mockCode(token: string): Promise<string> {
  const exam = await memberExam(token);
  const shared = (await ok("POST", `/api/exams/${exam.id}/share`, token)) as unknown as {
    mockExam: { code: string };
  };
  return shared.mockExam.code;
}

/** Issue 32: a program the admin directs (set up by rows, as the membership calls are tested apart). */
let adminProgramId: string | undefined;
async function adminProgram(): Promise<string> {
  if (!adminProgramId) {
    const me = await ok("GET", "/api/auth/me", admin.token);
    adminProgramId = await makeProgram(h.db.db, "Contract program");
    await putInProgram(h.db.db, me._id, adminProgramId, "director");
  }
  return adminProgramId;
}

/** A study set of the admin's program, its id. */
async function studySet(): Promise<{ id: string; assignmentId: string }> {
  const id = await adminProgram();
  const created = (await ok("POST", `/api/programs/${id}/assignments`, admin.token, {
    kind: "study",
    count: 5,
    due: "2099-01-01",
  })) as unknown as { assignment: { id: string } };
  return { id, assignmentId: created.assignment.id };
}

const loginBody = () => ({ username: member.username, password: "correct horse battery" });

async function scoreId(): Promise<string> {
  const created = await ok("POST", "/api/users/prite-scores", member.token, score());
  return (created.score as { _id: string })._id;
}

function url(call: RestCall, params: Record<string, string> = {}, query?: string): string {
  const filled = call.path.replace(/:(\w+)/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${callKey(call)}: no value for :${name}`);
    return encodeURIComponent(value);
  });
  return query ? `${filled}?${query}` : filled;
}

/** Values for path parameters when the call is refused before it reads them. */
const ANY_PARAMS = {
  id: "00000000-0000-4000-8000-000000000000",
  assignmentId: "00000000-0000-4000-8000-000000000000",
  part: "1",
  year: "2024",
  code: "ABCDEFGH",
  sha256: "0".repeat(64),
  userId: "00000000-0000-4000-8000-000000000001",
  version: "1",
};

function expectFailureBody(call: RestCall, body: unknown) {
  const record = body as Record<string, unknown>;
  expect(Object.keys(record).sort()).toEqual(errorBodyKeys(call).sort());
  expect(typeof record.message === "string" && record.message !== "").toBe(true);
  if ("success" in record) expect(record.success).toBe(false);
  if ("error" in record) expect(record.error).toBe(record.message);
}

beforeAll(async () => {
  h = await createHarness();
  const model = new MockLanguageModelV3({ doGenerate: async () => modelReply(MODEL_REPLY) });
  app = await buildApp({
    handle: h.db,
    config: {
      throttle: { maxPerUser: 50, maxPerIp: 500, windowMinutes: 10 },
      aiModel: model,
      mailer: { send: async () => {} },
      publicUrl: "https://prite.example.org",
    },
    webDir: null,
    allowedOrigins: [ORIGIN],
  });
  base = await app.listen({ port: 0, host: "127.0.0.1" });
  admin = await register("chief"); // the first account is the admin
  member = await register("resident");
  questionId = (await ok("POST", "/api/questions", member.token, validQuestion()))._id;
  const me = await ok("GET", "/api/auth/me", member.token);
  flashcardId = (await addFlashcard(h.db.db, me._id)).id;
  await ok("POST", "/api/users/prite-scores", member.token, score());
  revoked = (await ok("POST", "/api/auth/login", "", loginBody())).token as string;
  await ok("POST", "/api/auth/logout", revoked);
});
afterAll(async () => {
  await app?.close();
  await h?.close();
});

describe("the table", () => {
  it("lists exactly the paths the REST layer registers", () => {
    const registered: string[] = [];
    const fakeApp = {
      route: (o: { method: string; url: string }) => registered.push(`${o.method} ${o.url}`),
    };
    registerRestRoutes(fakeApp as never, (() => undefined) as never);
    expect(
      [...registered].sort(),
      "a new path needs a row in REST_CALLS (rest/contract.ts), a request in EXAMPLES below, and npx tsx scripts/rest-readme.ts",
    ).toEqual(REST_CALLS.map(callKey).sort());
  });

  it("has a request for every call, and the README's REST section is its rendering", async () => {
    expect(Object.keys(EXAMPLES).sort(), "one request per row of REST_CALLS").toEqual(
      REST_CALLS.map(callKey).sort(),
    );
    const readme = fs.readFileSync(path.join(process.cwd(), "README.md"), "utf8");
    const start = readme.indexOf(README_BEGIN);
    const end = readme.indexOf(README_END);
    expect(start, "README markers").toBeGreaterThan(-1);
    expect(
      readme.slice(start + README_BEGIN.length, end).trim(),
      "run npx tsx scripts/rest-readme.ts",
    ).toBe(await restReadmeSection());
  });

  it("no route file imports the module that imports it (rest/index.ts, app.ts)", () => {
    const dir = path.join(process.cwd(), "src", "server", "rest");
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "index.ts");
    for (const file of files) {
      const text = fs.readFileSync(path.join(dir, file), "utf8");
      expect(text, file).not.toMatch(/from "(\.\/index|\.|\.\.\/app)"/);
    }
  });
});

describe.each(REST_CALLS.map((c) => [callKey(c), c] as const))("%s", (_key, call) => {
  it(`answers ${call.status} with the documented shape`, async () => {
    const example = await EXAMPLES[callKey(call)]!();
    const res = await send(call.method, url(call, example.params, example.query), {
      token: example.token ?? member.token,
      body: example.body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(call.status);
    expect(checkShape(call.response, res.body)).toEqual([]);
    const items = example.items ? example.items(res.body as never) : res.body;
    if (Array.isArray(items)) expect(items.length, "a list with items").toBeGreaterThan(0);
  });

  if (call.access !== "public") {
    it("answers 401 with the failure body, without a token and with a revoked one", async () => {
      const target = url(call, ANY_PARAMS);
      const body = call.method === "GET" || call.method === "DELETE" ? undefined : {};
      for (const token of [undefined, revoked]) {
        const res = await send(call.method, target, { token, body });
        expect(res.status).toBe(401);
        expectFailureBody(call, res.body);
      }
    });
  } else {
    it("answers 400 with the failure body for an empty request", async () => {
      const res = await send(call.method, url(call), { body: {} });
      expect(res.status).toBe(400);
      expectFailureBody(call, res.body);
    });
  }

  if (call.access === "admin") {
    it("answers 403 with the failure body to a user who is not an admin", async () => {
      const res = await send(call.method, url(call, ANY_PARAMS), { token: member.token });
      expect(res.status).toBe(403);
      expectFailureBody(call, res.body);
    });
  }

  it(`lets ${ORIGIN} send x-auth-token and content-type (CORS preflight)`, async () => {
    const res = await send("OPTIONS", url(call, ANY_PARAMS), {
      headers: {
        origin: ORIGIN,
        "access-control-request-method": call.method,
        "access-control-request-headers": "x-auth-token,content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(res.headers.get("access-control-allow-methods")).toContain(call.method);
    const allowed = (res.headers.get("access-control-allow-headers") ?? "")
      .toLowerCase()
      .split(",");
    expect(allowed.map((s) => s.trim())).toEqual(
      expect.arrayContaining(["x-auth-token", "content-type"]),
    );
  });
});

describe("CORS", () => {
  it("answers an allowed origin's request with its origin, and gives another origin nothing", async () => {
    const mine = await send("GET", "/api/auth/me", {
      token: member.token,
      headers: { origin: ORIGIN },
    });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const other = await send("OPTIONS", "/api/auth/me", {
      headers: {
        origin: "https://elsewhere.example.org",
        "access-control-request-method": "GET",
        "access-control-request-headers": "x-auth-token",
      },
    });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });
});
