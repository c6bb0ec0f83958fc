import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The study writer is the only code that inserts or updates study states and the review log
 * (study-writer.service.ts): a second writer would schedule past the user's scheduler, or leave the
 * review log and the states it replays to disagree. This reads every server source file for such a
 * write, in drizzle (`.insert(studyStates)`, `.update(reviews)`) or in SQL (`insert into reviews`,
 * `update study_states`, `update ${studyStates}`). Deleting a user's rows (reset, account deletion),
 * triggers and migrations are not writes of a state.
 */
const SERVER = path.resolve(__dirname, "../..");
const WRITER = "features/study/study-writer.service.ts";

/** Files that may write anyway, each with why. */
const ALLOWED: Record<string, string> = {
  [WRITER]: "the writer",
  // The writer's live path (decision 398): the same writes in one guarded statement each, called
  // only by the writer, which runs its locking transaction whenever the live path declines.
  "features/study/study-writer-live.ts": "the writer's live path",
  // Its statements' text (decisions 427-430), run only by study-writer-live.ts.
  "features/study/live-statements.ts": "the live path's statements",
  // Benchmark data: millions of reviews and states generated in one SQL statement, no one's answers.
  "features/seed/synthetic.ts": "synthetic benchmark data",
};

const WRITES = [
  /\.\s*(insert|update)\(\s*(studyStates|reviews)\s*\)/g,
  /\b(insert\s+into|update)\s+("?(study_states|reviews)"?|\$\{\s*(studyStates|reviews)\s*\})(?![\w.])/gi,
];

const isTestCode = (rel: string) =>
  /\.test\.ts$|\.fixtures\.ts$|(^|\/)test-fixtures\.ts$/.test(rel) || rel.startsWith("test/");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** `file:line: text` of each write of study states or reviews in a file's source. */
function writesIn(rel: string, source: string): string[] {
  const found: string[] = [];
  for (const pattern of WRITES) {
    for (const match of source.matchAll(pattern)) {
      const line = source.slice(0, match.index).split("\n").length;
      found.push(`${rel}:${line}: ${match[0].replace(/\s+/g, " ")}`);
    }
  }
  return found;
}

describe("the one writer of study states and reviews", () => {
  it("finds each kind of write it looks for", () => {
    const source = [
      "await tx.insert(studyStates).values(row);",
      "await tx\n  .update(reviews)\n  .set({ difficulty });",
      "await tx.execute(sql`UPDATE study_states s SET ease_factor = 1`);",
      'sql`insert into "reviews" (user_id) values (1)`',
      "sql`update ${studyStates} set lapses = 0`",
    ].join("\n");
    expect(writesIn("x.ts", source)).toHaveLength(5);
    // Reads and deletes are not writes of a state; neither is another table of a similar name.
    const reads = [
      "await tx.select().from(studyStates);",
      "await tx.delete(reviews).where(eq(reviews.userId, userId));",
      "sql`select 1 from ${reviews} where ${reviews.userId} = ${userId}`",
      "sql`update study_states_archive set x = 1`",
      "sql`update reviews_totals set x = 1`",
    ].join("\n");
    expect(writesIn("x.ts", reads)).toEqual([]);
  });

  it("is the only server code that inserts or updates them", () => {
    const elsewhere = sourceFiles(SERVER).flatMap((file) => {
      const rel = path.relative(SERVER, file).split(path.sep).join("/");
      if (isTestCode(rel) || rel in ALLOWED) return [];
      return writesIn(rel, fs.readFileSync(file, "utf8"));
    });
    expect(elsewhere).toEqual([]);
  });

  it("is where the writes are", () => {
    // Guards the rule's premise: moving the writer without this test would make it pass vacuously.
    const source = fs.readFileSync(path.join(SERVER, WRITER), "utf8");
    expect(writesIn(WRITER, source).length).toBeGreaterThanOrEqual(5);
  });
});
