import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { questions, studyStates, users } from "../../db/schema";
import { createHarness, type Harness } from "../../test/harness";
import { enableDuePageCache, newDuePageCache } from "./due-page-cache";
import { computeDuePage, listDueQuestions, type DuePage } from "./due-page.service";
import { rateQuestion, recordAnswer } from "./study-writer.service";
import { addQuestion } from "./test-fixtures";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const HOUR = 3_600_000;

/** A page as plain data: its questions are a getter over the JSON text (due-page.service.ts). */
const plain = (page: DuePage) => ({ ...page, questions: page.questions });

/** A small deterministic generator, so a failing sequence can be run again. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A user with studied questions due in the past hours, own new ones, and another's public ones. */
async function world(now: Date) {
  const me = await h.user();
  const other = await h.user();
  await h.db.db
    .update(users)
    .set({ scheduler: "sm2", newPerDay: 3 })
    .where(eq(users.id, me.user.id));
  const own = [];
  for (let i = 0; i < 6; i++) {
    const q = await addQuestion(h.db.db, me.user.id, { createdAt: new Date(2024, 0, 1 + i) });
    if (i < 3) {
      await h.db.db.insert(studyStates).values({
        userId: me.user.id,
        questionId: q.id,
        dueAt: new Date(now.getTime() - i * HOUR),
        // Introduced long before, so today's new questions have their slots.
        introducedAt: new Date(2024, 0, 1),
      });
    }
    own.push(q.id);
  }
  const shared = [];
  for (let i = 0; i < 4; i++) {
    const q = await addQuestion(h.db.db, other.user.id, {
      isPublic: true,
      createdAt: new Date(2024, 1, 1 + i),
    });
    shared.push(q.id);
  }
  return { me, own, shared };
}

describe("the due page after the user's own answers and ratings (decision 406)", () => {
  it("is read again at once after an answer or a rating through this process, without the version's check", async () => {
    const now = new Date();
    const cache = enableDuePageCache(h.db.db, newDuePageCache());
    const get = vi.spyOn(cache, "get");
    try {
      const { me } = await world(now);
      const opts = { userId: me.user.id, now, limit: 1 };
      const first = await listDueQuestions(h.db.db, opts);
      get.mockClear();
      expect(plain(await listDueQuestions(h.db.db, opts))).toEqual(plain(first));
      // Kept: the version was checked and the page answered from memory.
      expect(get).toHaveBeenCalledTimes(1);
      expect(get.mock.results[0]!.value).toBeDefined();

      const questionId = first.questions[0]!._id;
      await recordAnswer(h.db.db, {
        userId: me.user.id,
        now,
        input: { questionId, selected: ["B"], timeSpentMs: 900 },
      });
      get.mockClear();
      const answered = await listDueQuestions(h.db.db, opts);
      expect(get).not.toHaveBeenCalled();
      expect(plain(answered)).toEqual(plain(await computeDuePage(h.db.db, opts)));

      await rateQuestion(h.db.db, { userId: me.user.id, now, questionId, difficulty: 1 });
      get.mockClear();
      const rated = await listDueQuestions(h.db.db, opts);
      expect(get).not.toHaveBeenCalled();
      expect(plain(rated)).toEqual(plain(await computeDuePage(h.db.db, opts)));
      expect(rated.questions.map((q) => q._id)).not.toContain(questionId);

      // With nothing written since, the page is kept again.
      get.mockClear();
      expect(plain(await listDueQuestions(h.db.db, opts))).toEqual(plain(rated));
      expect(get.mock.results[0]!.value).toBeDefined();
    } finally {
      get.mockRestore();
    }
  });

  it("equals a fresh read after any sequence of answers, ratings, edits, settings changes and time", async () => {
    for (const seed of [1, 2, 3]) {
      const next = random(seed);
      const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
      let now = new Date("2026-05-04T15:00:00Z");
      enableDuePageCache(h.db.db, newDuePageCache());
      const { me, own, shared } = await world(now);
      const userId = me.user.id;
      const steps: string[] = [];
      for (let step = 0; step < 30; step++) {
        const kind = pick([
          "answer",
          "answer",
          "rate",
          "rate",
          "edit",
          "share",
          "settings",
          "time",
        ]);
        const page = await listDueQuestions(h.db.db, { userId, now, limit: 3 });
        // The page's first question, or an own one (another user's may have been made private).
        const target = page.questions.length > 0 ? pick(page.questions)._id : pick(own);
        steps.push(`${kind} ${target.slice(0, 8)}`);
        if (kind === "answer") {
          await recordAnswer(h.db.db, {
            userId,
            now,
            input: { questionId: target, selected: [pick(["A", "B"])], timeSpentMs: 500 },
          });
        } else if (kind === "rate") {
          const difficulty = pick([0, 1, 2] as const);
          await rateQuestion(h.db.db, { userId, now, questionId: target, difficulty });
        } else if (kind === "edit") {
          await h.db.db
            .update(questions)
            .set({ text: `Edited at step ${step}` })
            .where(eq(questions.id, target));
        } else if (kind === "share") {
          const q = pick(shared);
          const [row] = await h.db.db
            .select({ isPublic: questions.isPublic })
            .from(questions)
            .where(eq(questions.id, q));
          await h.db.db
            .update(questions)
            .set({ isPublic: !row!.isPublic })
            .where(eq(questions.id, q));
        } else if (kind === "settings") {
          await h.db.db
            .update(users)
            .set({ newPerDay: Math.floor(next() * 5) })
            .where(eq(users.id, userId));
        } else {
          now = new Date(now.getTime() + Math.floor(next() * 30) * HOUR);
        }
        for (const limit of [1, 20]) {
          const opts = { userId, now, limit };
          expect(
            plain(await listDueQuestions(h.db.db, opts)),
            `seed ${seed}: ${steps.join(", ")}`,
          ).toEqual(plain(await computeDuePage(h.db.db, opts)));
        }
      }
      // Leave no public questions to the next seed's pool.
      await h.db.db.update(questions).set({ isPublic: false });
    }
  });
});
