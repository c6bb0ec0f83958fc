/**
 * Issue 32 item 2 (docs/product/visibility.md): private, program and public questions × the owner, a
 * member of the same program, its director, a member of another program, a user without a program and
 * the server admin, through every read path (tRPC, REST and the CLI's calls); reserved questions; and
 * leaving a program hiding its bank at once, the study pool included.
 */
import type { FastifyInstance } from "fastify";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFromCaller } from "../../../../cli/runtime";
import { fetchExport } from "../../../../cli/commands/export";
import { VISIBILITY_MESSAGES } from "../../../core/visibility";
import { questions, studyStates } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { makeProgram, putInProgram } from "../../test/programs.fixtures";
import { validQuestion } from "./questions.fixtures";

let h: Harness;
let app: FastifyInstance;
let admin: TestUser;
let owner: TestUser;
let member: TestUser;
let director: TestUser;
let other: TestUser;
let loner: TestUser;
const ids = { private: "", program: "", public: "", reserved: "" };
type Level = keyof typeof ids;
const LEVELS: Level[] = ["private", "program", "public", "reserved"];
/** Distinct words, so a search finds exactly one level's question. */
const WORD: Record<Level, string> = {
  private: "quetiapinex",
  program: "clozapinex",
  public: "lithiumx",
  reserved: "valproatex",
};
const CATEGORY: Record<Level, string> = {
  private: "Vis private",
  program: "Vis program",
  public: "Vis public",
  reserved: "Vis reserved",
};

/** What each viewer may see (decision 351: the admin sees what any user sees). */
const SEES: Record<string, Level[]> = {
  owner: ["private", "program", "public"],
  member: ["program", "public"],
  director: ["program", "public", "reserved"],
  other: ["public"],
  loner: ["public"],
  admin: ["public"],
};
const viewers = () => ({ owner, member, director, other, loner, admin });

beforeAll(async () => {
  h = await createHarness();
  app = await h.app();
  admin = await h.user({ username: "vis_admin" }); // the first user is the admin
  expect(admin.user.isAdmin).toBe(true);
  owner = await h.user({ username: "vis_owner" });
  member = await h.user({ username: "vis_member" });
  director = await h.user({ username: "vis_director" });
  other = await h.user({ username: "vis_other" });
  loner = await h.user({ username: "vis_loner" });
  const a = await makeProgram(h.db.db, "Program A");
  const b = await makeProgram(h.db.db, "Program B");
  await putInProgram(h.db.db, owner.user.id, a);
  await putInProgram(h.db.db, member.user.id, a);
  await putInProgram(h.db.db, director.user.id, a, "director");
  await putInProgram(h.db.db, other.user.id, b);

  const create = async (by: TestUser, level: Level, extra: object) =>
    (
      await by.caller.questions.create(
        validQuestion({
          text: `Which drug is ${WORD[level]}?`,
          category: CATEGORY[level],
          ...extra,
        }) as never,
      )
    )._id;
  ids.private = await create(owner, "private", { visibility: "private" });
  ids.program = await create(owner, "program", { visibility: "program" });
  ids.public = await create(owner, "public", {
    visibility: "public",
    shareStatement: "I may share these questions publicly. Source: written by me",
  });
  ids.reserved = await create(director, "reserved", { visibility: "program" });
  // Marking a question reserved is the assignments' procedure; the read side is tested here.
  await h.db.db.update(questions).set({ reserved: true }).where(eq(questions.id, ids.reserved));
});
afterAll(async () => {
  await h?.close();
});

const levelsOf = (found: string[]) => LEVELS.filter((l) => found.includes(ids[l])).sort();
const expected = (name: string) => [...SEES[name]!].sort();

async function rest(user: TestUser, url: string, method: "GET" | "POST" = "GET", body?: object) {
  return app.inject({ method, url, headers: user.headers, payload: body });
}

describe("the visibility matrix", () => {
  it("stores and answers the level: visibility with isPublic true only for public", async () => {
    const got = await owner.caller.questions.get({ id: ids.program } as never);
    expect(got).toMatchObject({ visibility: "program", isPublic: false });
    const pub = await owner.caller.questions.get({ id: ids.public } as never);
    expect(pub).toMatchObject({ visibility: "public", isPublic: true });
    const [row] = await h.db.db.select().from(questions).where(eq(questions.id, ids.public));
    expect(row!.shareStatement).toMatch(/Source: written by me/);
  });

  it("question by id: tRPC and REST", async () => {
    for (const [name, viewer] of Object.entries(viewers())) {
      const seen: string[] = [];
      for (const level of LEVELS) {
        const res = await rest(viewer, `/api/questions/${ids[level]}`);
        const trpc = await viewer.caller.questions
          .get({ id: ids[level] } as never)
          .then(() => true)
          .catch((e: { code?: string }) => {
            expect(e.code).toBe("NOT_FOUND");
            return false;
          });
        expect(res.statusCode === 200, `${name} ${level}`).toBe(trpc);
        if (trpc) seen.push(ids[level]);
      }
      expect(levelsOf(seen), name).toEqual(expected(name));
    }
  });

  it("Browse: list, search by word, the visibility filter, categories (tRPC and REST)", async () => {
    for (const [name, viewer] of Object.entries(viewers())) {
      const list = await viewer.caller.questions.list({ pageSize: 100 } as never);
      expect(levelsOf(list.items.map((q) => q._id)), `${name} list`).toEqual(expected(name));
      const restList = (await rest(viewer, "/api/questions?pageSize=100")).json() as {
        _id: string;
      }[];
      expect(levelsOf(restList.map((q) => q._id)), `${name} REST list`).toEqual(expected(name));
      for (const level of LEVELS) {
        const found = await viewer.caller.questions.search({ text: WORD[level] } as never);
        const want = SEES[name]!.includes(level) ? [level] : [];
        expect(levelsOf(found.items.map((q) => q._id)), `${name} search ${level}`).toEqual(want);
        expect(found.total).toBe(want.length);
      }
      const program = (
        await rest(viewer, "/api/questions/search?visibility=program&pageSize=100")
      ).json() as { _id: string }[];
      expect(levelsOf(program.map((q) => q._id)), `${name} program filter`).toEqual(
        expected(name).filter((l) => l === "program" || l === "reserved"),
      );
      const categories = await viewer.caller.questions.categories();
      expect(
        LEVELS.filter((l) => categories.includes(CATEGORY[l])).sort(),
        `${name} categories`,
      ).toEqual(expected(name));
    }
    const priv = await owner.caller.questions.search({ visibility: "private" } as never);
    expect(levelsOf(priv.items.map((q) => q._id))).toEqual(["private"]);
    const pub = await member.caller.questions.search({ visibility: "public" } as never);
    expect(levelsOf(pub.items.map((q) => q._id))).toEqual(["public"]);
  });

  it("Study: the due list, its REST twin and the offline copy", async () => {
    for (const [name, viewer] of Object.entries(viewers())) {
      const due = await viewer.caller.study.due({ limit: 100 } as never);
      expect(levelsOf(due.questions.map((q) => q._id)), `${name} due`).toEqual(expected(name));
      const restDue = (await rest(viewer, "/api/questions/due?limit=100")).json() as {
        _id: string;
      }[];
      expect(levelsOf(restDue.map((q) => q._id)), `${name} REST due`).toEqual(expected(name));
      const copy = await viewer.caller.study.offlineCopy();
      expect(levelsOf(copy.questions.map((q) => q._id)), `${name} offline`).toEqual(expected(name));
    }
  });

  it("duplicate detection finds only questions the importer may see", async () => {
    for (const [name, viewer] of Object.entries(viewers())) {
      const found: string[] = [];
      for (const level of LEVELS) {
        const { results } = await viewer.caller.imports.checkDuplicates({
          questions: [
            {
              text: `Which drug is ${WORD[level]}?`,
              options: validQuestion().options as Record<string, string>,
              part: "1",
              year: 2024,
            },
          ],
        } as never);
        for (const m of results[0]!.matches) found.push(m.question._id);
      }
      expect(levelsOf(found), `${name} duplicates`).toEqual(expected(name));
    }
  });

  it("practice exams draw only from what the viewer may see", async () => {
    for (const [name, viewer] of Object.entries(viewers())) {
      const { exam } = await viewer.caller.exams.create({
        size: 150,
        categories: LEVELS.map((l) => CATEGORY[l]),
      } as never);
      const drawn = exam.questions.map((q: { questionId: string }) => q.questionId);
      expect(levelsOf(drawn), `${name} exam`).toEqual(expected(name));
    }
  });

  it("exports (the CLI's `prite export questions` and Anki) hold the user's own questions only", async () => {
    for (const [name, viewer] of Object.entries(viewers())) {
      const api = apiFromCaller(viewer.caller);
      const exported = (await fetchExport(api, "questions")) as { _id: string }[];
      const own =
        name === "owner"
          ? ["private", "program", "public"]
          : name === "director"
            ? ["reserved"]
            : [];
      expect(levelsOf(exported.map((q) => q._id)), `${name} export`).toEqual(own.sort());
      // The CLI's read of Browse goes through the same procedure.
      const searched = await api.questions.search.query({ pageSize: 100 } as never);
      expect(levelsOf(searched.items.map((q) => q._id)), `${name} CLI search`).toEqual(
        expected(name),
      );
    }
  });
});

describe("writing a visibility", () => {
  it("refuses public without the statement and program without a program, in the product's words", async () => {
    await expect(
      owner.caller.questions.create(validQuestion({ visibility: "public" }) as never),
    ).rejects.toThrow(VISIBILITY_MESSAGES.STATEMENT_REQUIRED);
    await expect(
      loner.caller.questions.create(validQuestion({ visibility: "program" }) as never),
    ).rejects.toThrow(VISIBILITY_MESSAGES.NOT_IN_PROGRAM);
    const res = await rest(
      loner,
      "/api/questions",
      "POST",
      validQuestion({ visibility: "program" }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: VISIBILITY_MESSAGES.NOT_IN_PROGRAM });
    await expect(
      owner.caller.questions.update({ id: ids.private, data: { visibility: "public" } } as never),
    ).rejects.toThrow(VISIBILITY_MESSAGES.STATEMENT_REQUIRED);
  });

  it("keeps the original clients working: isPublic true is public, a program question sent back with isPublic false stays", async () => {
    const legacy = await loner.caller.questions.create(validQuestion({ isPublic: true }) as never);
    expect(legacy).toMatchObject({ isPublic: true, visibility: "public" });
    const res = await rest(owner, `/api/questions/${ids.program}`);
    const body = res.json() as Record<string, unknown>;
    const put = await app.inject({
      method: "PUT",
      url: `/api/questions/${ids.program}`,
      headers: owner.headers,
      payload: { ...validQuestion({ text: body.text as string }), isPublic: false },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ visibility: "program", isPublic: false });
  });

  it("defaults an import to program for a program's member, private otherwise", async () => {
    const item = (text: string) => ({
      question: { text, options: { A: "a", B: "b" }, correctAnswer: "A", part: "1", year: 2024 },
      action: "create" as const,
    });
    const mine = await member.caller.imports.commit({
      items: [item("Imported by a member?")],
    } as never);
    expect(mine.questions[0]).toMatchObject({ visibility: "program" });
    const lone = await loner.caller.imports.commit({ items: [item("Imported alone?")] } as never);
    expect(lone.questions[0]).toMatchObject({ visibility: "private" });
    await expect(
      loner.caller.imports.commit({ items: [item("Shared?")], visibility: "program" } as never),
    ).rejects.toThrow(VISIBILITY_MESSAGES.NOT_IN_PROGRAM);
    // Clean up: these would change the matrix above if it ran after.
    for (const q of [...mine.questions, ...lone.questions]) {
      await h.db.db.delete(questions).where(eq(questions.id, q._id));
    }
  });
});

describe("leaving a program", () => {
  it("hides its bank at once, the studied question in the due list included, and joining brings it back", async () => {
    const a = (await h.db.db.select().from(questions).where(eq(questions.id, ids.program)))[0]!
      .programId!;
    // The member studies the program question: it is theirs to review.
    await member.caller.study.answer({
      questionId: ids.program,
      selected: ["B"],
      timeSpentMs: 1000,
    } as never);
    const stateOf = async () =>
      (
        await h.db.db
          .select({ available: studyStates.available })
          .from(studyStates)
          .where(
            and(eq(studyStates.userId, member.user.id), eq(studyStates.questionId, ids.program)),
          )
      )[0]?.available;
    expect(await stateOf()).toBe(true);
    // A year on, the studied question is due again: it is in the first segment, from study_states.
    const later = await h.callerFor(member.user, {
      now: () => new Date(Date.now() + 400 * 86_400_000),
    });
    const dueBefore = await later.study.due({ limit: 100 } as never);
    expect(dueBefore.questions.map((q) => q._id)).toContain(ids.program);

    await putInProgram(h.db.db, member.user.id, null);
    expect(await stateOf()).toBe(false);
    await expect(member.caller.questions.get({ id: ids.program } as never)).rejects.toThrow();
    const dueAfter = await later.study.due({ limit: 100 } as never);
    expect(levelsOf(dueAfter.questions.map((q) => q._id))).toEqual(["public"]);
    const search = await member.caller.questions.search({ text: WORD.program } as never);
    expect(search.items).toEqual([]);

    await putInProgram(h.db.db, member.user.id, a);
    expect(await stateOf()).toBe(true);
    expect((await later.study.due({ limit: 100 } as never)).questions.map((q) => q._id)).toContain(
      ids.program,
    );
  });

  it("a resident promoted to director sees the reserved questions; released ones reach residents", async () => {
    await putInProgram(
      h.db.db,
      other.user.id,
      (await h.db.db.select().from(questions).where(eq(questions.id, ids.reserved)))[0]!.programId!,
      "resident",
    );
    await expect(other.caller.questions.get({ id: ids.reserved } as never)).rejects.toThrow();
    await h.db.db.update(questions).set({ reserved: false }).where(eq(questions.id, ids.reserved));
    expect((await other.caller.questions.get({ id: ids.reserved } as never))._id).toBe(
      ids.reserved,
    );
    await h.db.db.update(questions).set({ reserved: true }).where(eq(questions.id, ids.reserved));
    const { users } = await import("../../db/schema");
    await h.db.db.update(users).set({ programRole: "director" }).where(eq(users.id, other.user.id));
    expect((await other.caller.questions.get({ id: ids.reserved } as never))._id).toBe(
      ids.reserved,
    );
  });
});
