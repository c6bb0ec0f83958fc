/**
 * Issue 24 item 10: an author with Public Profile off is anonymous on every surface: `creator` is the
 * author's id only for the author, or for everyone once their Public Profile is on.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { validQuestion } from "./questions.fixtures";

let h: Harness;
let app: FastifyInstance;
let author: TestUser;
let reader: TestUser;
let questionId: string;

beforeAll(async () => {
  h = await createHarness();
  app = await h.app();
  author = await h.user({ username: "shy_author" });
  reader = await h.user({ username: "curious_reader" });
  await author.caller.users.updateSettings({
    settings: { shareUsageData: false, publicProfile: false },
  });
  const created = await author.caller.questions.create(
    validQuestion({ text: "Which drug needs lithium-level monitoring?", isPublic: true }) as never,
  );
  questionId = created._id;
});
afterAll(async () => {
  await h?.close();
});

/** Every JSON copy of the question a reader can get, by surface. */
async function readerCopies(): Promise<
  Record<string, { creator: string | null; contributor: string }>
> {
  const rest = async (url: string) => {
    const res = await app.inject({ method: "GET", url, headers: reader.headers });
    expect(res.statusCode, url).toBe(200);
    return res.json() as unknown;
  };
  const find = (list: unknown) =>
    (list as { _id: string; creator: string | null; contributor: string }[]).find(
      (q) => q._id === questionId,
    )!;
  const due = await reader.caller.study.due({ limit: 500 });
  return {
    "tRPC questions.get": await reader.caller.questions.get({ id: questionId } as never),
    "tRPC questions.search": find(
      (await reader.caller.questions.search({ text: "lithium-level" } as never)).items,
    ),
    "tRPC study.due (JSON built in SQL)": find(due.questions),
    "REST GET /api/questions": find(await rest("/api/questions")),
    "REST GET /api/questions/search": find(await rest("/api/questions/search?text=lithium-level")),
    "REST GET /api/questions/due": find(await rest("/api/questions/due")),
  };
}

describe("an author with Public Profile off", () => {
  it("is null as creator and 'Anonymous' as contributor to everyone else, on every surface", async () => {
    for (const [surface, copy] of Object.entries(await readerCopies())) {
      expect(copy, surface).toMatchObject({ creator: null, contributor: "Anonymous" });
    }
  });

  it("still sees their own id, so the edit icon shows, and their own name", async () => {
    const own = await author.caller.questions.get({ id: questionId } as never);
    expect(own).toMatchObject({ creator: author.user.id, contributor: "shy_author" });
    const exported = await author.caller.users.exportQuestions();
    expect(exported.questions.find((q) => q._id === questionId)?.creator).toBe(author.user.id);
  });

  it("is named, id included, once their Public Profile is on", async () => {
    await author.caller.users.updateSettings({
      settings: { shareUsageData: false, publicProfile: true },
    });
    try {
      for (const [surface, copy] of Object.entries(await readerCopies())) {
        expect(copy, surface).toMatchObject({ creator: author.user.id, contributor: "shy_author" });
      }
    } finally {
      await author.caller.users.updateSettings({
        settings: { shareUsageData: false, publicProfile: false },
      });
    }
  });
});
