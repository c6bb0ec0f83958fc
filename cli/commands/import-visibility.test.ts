/**
 * `prite import --visibility private|program|public` (issue 32, docs/product/visibility.md): the default
 * is program for a program's member, --public still works, public needs --share-source, program needs a
 * program; and a question imported into program A never reaches a member of B or a user with none.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VISIBILITY_MESSAGES } from "../../src/core/visibility";
import { createHarness, type Harness, type TestUser } from "../../src/server/test/harness";
import { makeProgram, putInProgram } from "../../src/server/test/programs.fixtures";
import { apiFromCaller } from "../runtime";
import { fetchExport } from "./export";
import { runImport, type ImportOptions } from "./import";

const MMLU = path.resolve(__dirname, "../../fixtures/real/mmlu_clinical_knowledge_dev.csv");

let h: Harness;
let chief: TestUser;
let colleague: TestUser;
let stranger: TestUser;
let loner: TestUser;

beforeAll(async () => {
  h = await createHarness();
  await h.user(); // the first account is the admin
  chief = await h.user();
  colleague = await h.user();
  stranger = await h.user();
  loner = await h.user();
  const a = await makeProgram(h.db.db, "A");
  const b = await makeProgram(h.db.db, "B");
  await putInProgram(h.db.db, chief.user.id, a, "director");
  await putInProgram(h.db.db, colleague.user.id, a);
  await putInProgram(h.db.db, stranger.user.id, b);
});
afterAll(async () => {
  await h.close();
});

const opts = (extra: ImportOptions = {}): ImportOptions => ({ part: "1", year: "2024", ...extra });
const levels = async (user: TestUser) =>
  ((await fetchExport(apiFromCaller(user.caller), "questions")) as { visibility: string }[]).map(
    (q) => q.visibility,
  );

describe("prite import --visibility", () => {
  it("imports a program member's file as program questions by default, seen by the program only", async () => {
    const summary = await runImport(apiFromCaller(chief.caller), [MMLU], opts());
    expect(summary.imported).toBe(5);
    expect(new Set(await levels(chief))).toEqual(new Set(["program"]));
    const ids = new Set(
      (
        await chief.caller.questions.search({ visibility: "program", pageSize: 100 } as never)
      ).items.map((q) => q._id),
    );
    expect(ids.size).toBe(5);
    const seenBy = async (user: TestUser) =>
      (await apiFromCaller(user.caller).questions.search.query({ pageSize: 100 } as never)).items
        .map((q) => q._id)
        .filter((id) => ids.has(id)).length;
    expect(await seenBy(colleague)).toBe(5);
    expect(await seenBy(stranger)).toBe(0);
    expect(await seenBy(loner)).toBe(0);
  });

  it("private, public with a source, the original --public; refuses what may not be chosen", async () => {
    const api = apiFromCaller(loner.caller);
    await expect(runImport(api, [MMLU], opts({ visibility: "program" }))).rejects.toThrow(
      VISIBILITY_MESSAGES.NOT_IN_PROGRAM,
    );
    await expect(runImport(api, [MMLU], opts({ visibility: "public" }))).rejects.toThrow(
      VISIBILITY_MESSAGES.STATEMENT_REQUIRED,
    );
    await expect(runImport(api, [MMLU], opts({ visibility: "everyone" }))).rejects.toThrow(
      VISIBILITY_MESSAGES.VISIBILITY,
    );
    expect(await levels(loner)).toEqual([]);
    await runImport(api, [MMLU], opts({ visibility: "private", onDuplicate: "keep-both" }));
    await runImport(
      api,
      [MMLU],
      opts({ visibility: "public", shareSource: "MMLU (MIT licence)", onDuplicate: "keep-both" }),
    );
    await runImport(api, [MMLU], opts({ public: true, onDuplicate: "keep-both" }));
    const counts = (await levels(loner)).reduce<Record<string, number>>(
      (acc, l) => ({ ...acc, [l]: (acc[l] ?? 0) + 1 }),
      {},
    );
    expect(counts).toEqual({ private: 5, public: 10 });
  });
});
