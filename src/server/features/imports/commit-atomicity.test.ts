import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { questions } from "../../db/schema";
import { createHarness, type Harness } from "../../test/harness";
import { addQuestion } from "../study/test-fixtures";
import { COMMIT_CHUNK } from "./imports.service";

/**
 * imports.commit is one transaction (docs/decisions/032-import-commit.md). The validation tests in
 * imports.test.ts fail before anything is written; this one makes the database itself refuse a row
 * AFTER the merge has been applied and a whole insert chunk has been written, inside the same
 * transaction, and checks that none of it survives.
 */

const MARKER = "ATOMICITY-TEST-REFUSE";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

async function questionCount(): Promise<number> {
  const [row] = await h.db.db.select({ n: count() }).from(questions);
  return Number(row!.n);
}

/** The messages of an error and its causes. */
function messages(error: unknown): string {
  const out: string[] = [];
  for (let e = error; e instanceof Error && out.length < 10; e = e.cause) out.push(e.message);
  return out.join(" <- ");
}

function item(text: string) {
  return {
    text,
    options: { A: "Sertraline", B: "Haloperidol", C: "Lithium", D: "Clozapine" },
    correctAnswer: "A",
    category: "Psychopharmacology",
    part: "1" as const,
    year: 2024,
    number: null,
    explanation: "",
  };
}

describe(`imports.commit rolls back writes already made (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("a row refused in the second insert chunk undoes the first chunk and the merge", async () => {
    const me = await h.user();
    const target = await addQuestion(h.db.db, me.user.id, {
      text: "Which drug is first-line for panic disorder in most guidelines today?",
    });
    const before = await questionCount();
    const [targetBefore] = await h.db.db
      .select()
      .from(questions)
      .where(eq(questions.id, target.id));
    const mergedText = "Which medication is the first-line treatment for panic disorder?";

    // A test-only trigger (in this file's private database) refuses the marked row, and only once
    // the merge is visible and the first chunk is in the table: the failure is proven to come after
    // those writes, inside the transaction. Values are ours (a uuid and integers), not user input.
    const expectedWritten = before + COMMIT_CHUNK;
    await h.db.db.execute(
      sql.raw(`
        create function atomicity_test_refuse() returns trigger language plpgsql as $fn$
        begin
          if new.text like '%${MARKER}%'
             and (select count(*) from questions) >= ${expectedWritten}
             and exists (select 1 from questions
                         where id = '${target.id}' and text = '${mergedText}') then
            raise exception 'atomicity test: row refused after earlier writes';
          end if;
          return new;
        end
        $fn$`),
    );
    await h.db.db.execute(
      sql.raw(`create trigger atomicity_test_refuse before insert on questions
               for each row execute function atomicity_test_refuse()`),
    );

    const creates = Array.from({ length: COMMIT_CHUNK + 200 }, (_, i) => ({
      question: item(
        i === COMMIT_CHUNK + 100
          ? `Question ${i + 1} of the atomicity test ${MARKER}: which drug is an SSRI?`
          : `Question ${i + 1} of the atomicity test: which drug is an SSRI?`,
      ),
      action: "create" as const,
    }));
    const merge = {
      question: item(mergedText),
      action: { merge: "newer" as const, targetId: target.id },
      hadDuplicate: true,
    };

    const failure = await me.caller.imports.commit({ items: [merge, ...creates] }).then(
      () => null,
      (error: unknown) => error,
    );
    // Refused by the trigger, i.e. by the database in the middle of the writes.
    expect(messages(failure)).toContain("atomicity test: row refused after earlier writes");

    expect(await questionCount()).toBe(before);
    const [targetAfter] = await h.db.db.select().from(questions).where(eq(questions.id, target.id));
    expect(targetAfter).toEqual(targetBefore);

    // The same commit without the marked row goes through: the trigger refused only that row,
    // after the merge and the first chunk, which is what made the test meaningful.
    const clean = creates.filter((_, i) => i !== COMMIT_CHUNK + 100);
    const result = await me.caller.imports.commit({ items: [merge, ...clean] });
    expect(result).toMatchObject({ merged: 1, imported: COMMIT_CHUNK + 199 });
    expect(await questionCount()).toBe(before + COMMIT_CHUNK + 199);
    const [merged] = await h.db.db.select().from(questions).where(eq(questions.id, target.id));
    expect(merged?.text).toBe(mergedText);
  });
});
