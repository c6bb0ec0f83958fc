/**
 * Random histories for the tests that hold figures kept by triggers to a from-scratch computation over
 * the log: the answer rollups (stats-rollups.test.ts, decision 220) and the item statistics
 * (item-stats.test.ts, decision 391). Each test draws its own operations, with its own weights and
 * fields; the users and questions a history starts with, the reviews and exams it writes and the
 * operations both tests draw alike (a review deleted, a question deleted, progress reset, an account
 * deleted) are here.
 */
import { eq } from "drizzle-orm";
import fc from "fast-check";
import type { Db } from "../db/client";
import { exams, questions, reviews, users } from "../db/schema";
import { SERVER_ORIGIN } from "../features/audit/audit.service";
import { addQuestion } from "../features/study/test-fixtures";
import { deleteAccount, resetStudyProgress } from "../features/users/users.service";

/** Study answers of one user, written in one statement or one at a time. */
interface AnswersOp<Item> {
  kind: "answers";
  user: number;
  items: Item[];
  oneStatement: boolean;
}

/** The operations both tests draw alike, played by `RandomHistory.play`. */
type SharedOp =
  | { kind: "deleteReview"; pick: number }
  | { kind: "deleteQuestion"; q: number }
  | { kind: "reset"; user: number }
  | { kind: "deleteUser"; user: number };

/** An exam of one user's, with the test's `Fields`, and how it ends. */
type ExamOp<Fields> = {
  kind: "exam";
  user: number;
  status: "in_progress" | "submitted" | "expired";
  /** With a lapse record (a study review of the exam's). */
  lapse: boolean;
  /** Deleted at the end. */
  remove: boolean;
} & Fields;

/**
 * A test's operations: study answers of its `Item`s, exams with its `ExamFields`, the shared
 * operations, and its `Own`.
 */
export type HistoryOp<Item, ExamFields, Own> =
  AnswersOp<Item> | ExamOp<ExamFields> | SharedOp | Own;

const SHARED_KINDS: ReadonlySet<string> = new Set<SharedOp["kind"]>([
  "deleteReview",
  "deleteQuestion",
  "reset",
  "deleteUser",
]);

/**
 * The draws of the operations both tests have. `other` picks a user other than user 0, who owns the
 * questions and is never reset nor deleted.
 */
export function historyDraws(index: {
  user: fc.Arbitrary<number>;
  other: fc.Arbitrary<number>;
  question: fc.Arbitrary<number>;
}) {
  return {
    answers: <Item>(item: fc.Arbitrary<Item>): fc.Arbitrary<AnswersOp<Item>> =>
      fc.record({
        kind: fc.constant("answers" as const),
        user: index.user,
        items: fc.array(item, { minLength: 1, maxLength: 6 }),
        oneStatement: fc.boolean(),
      }),
    /**
     * An exam: its user, the test's `fields`, how it ends, then the test's `after` (fast-check draws
     * a record's keys in their order, so that order is part of what a seed draws).
     */
    exam: <Fields, After = object>(
      fields: { [K in keyof Fields]: fc.Arbitrary<Fields[K]> },
      after?: { [K in keyof After]: fc.Arbitrary<After[K]> },
    ): fc.Arbitrary<ExamOp<Fields & After>> =>
      // Cast: fc.record does not type the spread of generic records; this is what it draws.
      fc.record({
        kind: fc.constant("exam" as const),
        user: index.user,
        ...fields,
        status: fc.constantFrom("in_progress" as const, "submitted" as const, "expired" as const),
        lapse: fc.boolean(),
        remove: fc.boolean(),
        ...after,
      }) as fc.Arbitrary<ExamOp<Fields & After>>,
    deleteReview: fc.record({ kind: fc.constant("deleteReview" as const), pick: fc.nat() }),
    deleteQuestion: fc.record({ kind: fc.constant("deleteQuestion" as const), q: index.question }),
    reset: fc.record({ kind: fc.constant("reset" as const), user: index.other }),
    deleteUser: fc.record({ kind: fc.constant("deleteUser" as const), user: index.other }),
  };
}

let run = 0;

/** One history's users and questions, and the study reviews it has written. */
export class RandomHistory {
  /** The study reviews written so far, for the operations that edit or delete one. */
  private readonly logged: number[] = [];

  private constructor(
    private readonly db: Db,
    /** The users' ids by index, null once the account is deleted; user 0 owns the questions. */
    readonly users: (string | null)[],
    /** The public questions' ids by index, null once deleted. */
    readonly questions: (string | null)[],
  ) {}

  /** A history's users (`profile` adds to each one's row) and public questions, owned by user 0. */
  static async start(
    db: Db,
    options: {
      /** Starts the usernames, which are unique across the file's histories. */
      prefix: string;
      users: number;
      questions: number;
      profile?: (i: number) => Partial<typeof users.$inferInsert>;
    },
  ): Promise<RandomHistory> {
    run += 1;
    const ids: (string | null)[] = [];
    for (let i = 0; i < options.users; i++) {
      const tag = `${options.prefix}${run}_${i}_${Math.random().toString(36).slice(2, 7)}`;
      const [u] = await db
        .insert(users)
        .values({
          username: tag,
          email: `${tag}@example.test`,
          passwordHash: "x",
          ...options.profile?.(i),
        })
        .returning({ id: users.id });
      ids.push(u!.id);
    }
    const qs: (string | null)[] = [];
    for (let i = 0; i < options.questions; i++) {
      qs.push((await addQuestion(db, ids[0]!, { isPublic: true })).id);
    }
    return new RandomHistory(db, ids, qs);
  }

  /** The user an operation acts for: null for one that names none, undefined once deleted (skip it). */
  private actorOf(o: object): string | null | undefined {
    if (!("user" in o) || typeof o.user !== "number") return null;
    return this.users[o.user] ?? undefined;
  }

  /** A review written so far, picked by a drawn number; undefined while there is none. */
  private pickLogged(pick: number): number | undefined {
    return this.logged.length > 0 ? this.logged[pick % this.logged.length] : undefined;
  }

  /** Edits a review written so far, picked by a drawn number (none while there is none). */
  async updateReview(pick: number, values: Partial<typeof reviews.$inferInsert>) {
    const id = this.pickLogged(pick);
    if (id !== undefined) await this.db.update(reviews).set(values).where(eq(reviews.id, id));
  }

  /** Writes reviews, in one statement or one at a time, and logs them for the later operations. */
  async writeReviews(rows: (typeof reviews.$inferInsert)[], oneStatement = true) {
    if (rows.length === 0) return;
    if (oneStatement) {
      const out = await this.db.insert(reviews).values(rows).returning({ id: reviews.id });
      this.logged.push(...out.map((r) => r.id));
      return;
    }
    for (const row of rows) {
      const [r] = await this.db.insert(reviews).values(row).returning({ id: reviews.id });
      this.logged.push(r!.id);
    }
  }

  /**
   * Plays `ops` in order, each for the user it names (one for a deleted user, or one `skip` names, is
   * passed over): the shared operations here; study answers as reviews, `review` giving each row but
   * its user and question (an answer to a deleted question is left out); exams and the test's own
   * operations through `own`.
   */
  async play<Item extends { q: number }, ExamFields, Own extends { kind: string }>(
    ops: readonly HistoryOp<Item, ExamFields, Own>[],
    steps: {
      review: (item: Item) => Omit<typeof reviews.$inferInsert, "userId" | "questionId">;
      own: (o: ExamOp<ExamFields> | Own, user: string | null) => Promise<void>;
      skip?: (o: HistoryOp<Item, ExamFields, Own>) => boolean;
    },
  ) {
    for (const o of ops) {
      const user = this.actorOf(o);
      if (user === undefined || steps.skip?.(o)) continue;
      if (o.kind === "answers") {
        const answers = o as AnswersOp<Item>;
        const rows = answers.items.flatMap((a) => {
          const questionId = this.questions[a.q];
          return questionId ? [{ userId: user!, questionId, ...steps.review(a) }] : [];
        });
        await this.writeReviews(rows, answers.oneStatement);
      } else if (SHARED_KINDS.has(o.kind)) {
        await this.playShared(o as SharedOp);
      } else {
        await steps.own(o as ExamOp<ExamFields> | Own, user);
      }
    }
  }

  /** Plays one of the shared operations (one for a deleted user does nothing). */
  private async playShared(o: SharedOp) {
    switch (o.kind) {
      case "deleteReview": {
        const id = this.pickLogged(o.pick);
        if (id !== undefined) await this.db.delete(reviews).where(eq(reviews.id, id));
        break;
      }
      case "deleteQuestion": {
        const id = this.questions[o.q];
        if (id) await this.db.delete(questions).where(eq(questions.id, id));
        this.questions[o.q] = null;
        break;
      }
      case "reset": {
        const user = this.users[o.user];
        if (user) await resetStudyProgress(this.db, user);
        break;
      }
      case "deleteUser": {
        const user = this.users[o.user];
        if (!user) break;
        await deleteAccount(this.db, user, { origin: SERVER_ORIGIN, at: new Date() });
        this.users[o.user] = null;
        break;
      }
    }
  }
}

/** An exam of `count` questions for the user, in progress; its id. */
export async function startExam(
  db: Db,
  exam: { userId: string; count: number; startedAt: Date; mode?: "timed" | "tutor" },
): Promise<string> {
  const [row] = await db
    .insert(exams)
    .values({
      userId: exam.userId,
      mode: exam.mode ?? "timed",
      requestedSize: exam.count,
      questionCount: exam.count,
      part: "1",
      pool: "all",
      secondsPerQuestion: 60,
      seed: 1,
      startedAt: exam.startedAt,
    })
    .returning({ id: exams.id });
  return row!.id;
}
