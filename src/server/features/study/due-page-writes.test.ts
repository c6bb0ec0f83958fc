import { eq } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import * as schema from "../../db/schema";
import { questions, studyStates, users } from "../../db/schema";
import { PUBLIC_VERSION_ROW, userVersion, versionAfterLiveWrite } from "../../db/user-versions";
import { createHarness, type Harness } from "../../test/harness";
import { enableDuePageCache, keptSizePages, newDuePageCache } from "./due-page-cache";
import { computeDuePage, listDueQuestions, type DuePage } from "./due-page.service";
import { rateQuestion, recordAnswer } from "./study-writer.service";
import { addQuestion } from "./test-fixtures";
import { seededRng } from "../../../core/random";

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

/** Makes a public question private, or a private one public again. */
async function toggleShared(questionId: string) {
  const [row] = await h.db.db
    .select({ isPublic: questions.isPublic })
    .from(questions)
    .where(eq(questions.id, questionId));
  await h.db.db
    .update(questions)
    .set({ isPublic: !row!.isPublic })
    .where(eq(questions.id, questionId));
}

/** The served page equals a fresh read, at a page of one and of twenty. */
async function expectFreshPages(userId: string, now: Date, note: string) {
  for (const limit of [1, 20]) {
    const opts = { userId, now, limit };
    expect(plain(await listDueQuestions(h.db.db, opts)), note).toEqual(
      plain(await computeDuePage(h.db.db, opts)),
    );
  }
}

/**
 * A user with studied questions (due in the past hours, or with `later` some not yet), own new ones
 * (`byHand` of them written by hand an hour ago), and another's public ones.
 */
async function world(
  now: Date,
  opts: {
    scheduler?: "sm2" | "fsrs";
    newPerDay?: number;
    leechThreshold?: number;
    byHand?: number;
    later?: boolean;
    shared?: number;
  } = {},
) {
  const me = await h.user();
  const other = await h.user();
  await h.db.db
    .update(users)
    .set({
      scheduler: opts.scheduler ?? "sm2",
      newPerDay: opts.newPerDay ?? 3,
      leechThreshold: opts.leechThreshold ?? 8,
    })
    .where(eq(users.id, me.user.id));
  const byHand = opts.byHand ?? 0;
  const own: string[] = [];
  for (let i = 0; i < 6 + byHand; i++) {
    const hand = i >= 6;
    const q = await addQuestion(h.db.db, me.user.id, {
      createdAt: hand ? new Date(now.getTime() - HOUR) : new Date(2024, 0, 1 + i),
      byHand: hand,
    });
    if (i < 3) {
      await h.db.db.insert(studyStates).values({
        userId: me.user.id,
        questionId: q.id,
        dueAt: new Date(now.getTime() + (opts.later ? i - 1 : -i) * HOUR),
        // Introduced long before, so today's new questions have their slots.
        introducedAt: new Date(2024, 0, 1),
      });
    }
    own.push(q.id);
  }
  const shared: string[] = [];
  for (let i = 0; i < (opts.shared ?? 4); i++) {
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
      const next = seededRng(seed);
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
          await toggleShared(pick(shared));
        } else if (kind === "settings") {
          await h.db.db
            .update(users)
            .set({ newPerDay: Math.floor(next() * 5) })
            .where(eq(users.id, userId));
        } else {
          now = new Date(now.getTime() + Math.floor(next() * 30) * HOUR);
        }
        await expectFreshPages(userId, now, `seed ${seed}: ${steps.join(", ")}`);
      }
      // Leave no public questions to the next seed's pool.
      await h.db.db.update(questions).set({ isPublic: false });
    }
  });
});

/** The same database through another handle: a second server process, as far as this one can tell. */
function anotherProcess(): Db {
  const client = (h.db.db as unknown as { $client: never }).$client;
  return (h.db.kind === "pglite"
    ? drizzlePglite({ client, schema, casing: "snake_case" })
    : drizzlePostgres({ client, schema, casing: "snake_case" })) as unknown as Db;
}

describe("the day's sizes kept per user (decision 429)", () => {
  it("a live answer or rating moves its user's version by what it wrote and the public bank's not at all", async () => {
    const me = await h.user();
    const q = await addQuestion(h.db.db, me.user.id);
    const now = new Date("2026-06-01T12:00:00Z");
    const before = await userVersion(h.db.db, me.user.id);
    await recordAnswer(h.db.db, {
      userId: me.user.id,
      now,
      input: { questionId: q.id, selected: ["B"], timeSpentMs: 900 },
    });
    const answered = await userVersion(h.db.db, me.user.id);
    expect(answered).toBe(versionAfterLiveWrite(before, 1));
    expect(answered.split("/")[1]).toBe(before.split("/")[1]);
    await rateQuestion(h.db.db, { userId: me.user.id, now, questionId: q.id, difficulty: 1 });
    const rated = await userVersion(h.db.db, me.user.id);
    expect(rated).toBe(versionAfterLiveWrite(answered, 1));
    // A rating again, with no answer waiting for it, writes the state alone.
    await rateQuestion(h.db.db, { userId: me.user.id, now, questionId: q.id, difficulty: 2 });
    const again = await userVersion(h.db.db, me.user.id);
    expect(again).toBe(versionAfterLiveWrite(rated, 0));
    expect(again.split("/")[1]).toBe(before.split("/")[1]);
    expect(PUBLIC_VERSION_ROW).not.toBe(me.user.id);
  });

  it("reads the page after the user's own answers and ratings without counting again, as a fresh read would", async () => {
    const now = new Date("2026-06-02T15:00:00Z");
    enableDuePageCache(h.db.db, newDuePageCache());
    const { me } = await world(now, { newPerDay: 4, leechThreshold: 2, byHand: 2, later: true });
    const userId = me.user.id;
    const opts = { userId, now, limit: 1 };
    const used = keptSizePages.count;
    for (let step = 0; step < 6; step++) {
      const page = await listDueQuestions(h.db.db, opts);
      expect(plain(page)).toEqual(plain(await computeDuePage(h.db.db, opts)));
      const questionId = page.questions[0]!._id;
      await recordAnswer(h.db.db, {
        userId,
        now,
        input: { questionId, selected: [step % 3 === 0 ? "A" : "B"], timeSpentMs: 700 },
      });
      await rateQuestion(h.db.db, { userId, now, questionId, difficulty: 1 });
    }
    expect(plain(await listDueQuestions(h.db.db, opts))).toEqual(
      plain(await computeDuePage(h.db.db, opts)),
    );
    // Every page after the first was read with the kept sizes.
    expect(keptSizePages.count - used).toBe(6);
  });

  it("reads reviews alone once the day takes no new question, as a fresh read would (decision 435)", async () => {
    const now = new Date("2026-06-04T15:00:00Z");
    enableDuePageCache(h.db.db, newDuePageCache());
    // Two new questions a day and none written by hand: after two answers the day's new slots are gone.
    const { me } = await world(now, { newPerDay: 2, leechThreshold: 3 });
    const userId = me.user.id;
    // Enough reviews due for every step.
    for (let i = 0; i < 8; i++) {
      const q = await addQuestion(h.db.db, userId, { createdAt: new Date(2023, 5, 1 + i) });
      await h.db.db.insert(studyStates).values({
        userId,
        questionId: q.id,
        dueAt: new Date(now.getTime() - (i + 1) * HOUR),
        introducedAt: new Date(2024, 0, 1),
      });
    }
    const used = { ...keptSizePages };
    let fresh = 0;
    for (let step = 0; step < 8; step++) {
      const page = await listDueQuestions(h.db.db, { userId, now, limit: 1 });
      expect(plain(page)).toEqual(plain(await computeDuePage(h.db.db, { userId, now, limit: 1 })));
      for (const paging of [{ limit: 20 }, { limit: 2, offset: 1 }]) {
        const opts = { userId, now, ...paging };
        expect(plain(await listDueQuestions(h.db.db, opts)), `step ${step}`).toEqual(
          plain(await computeDuePage(h.db.db, opts)),
        );
      }
      fresh += page.newCount;
      // A new question first while the day has one, so that its slots run out.
      const all = await listDueQuestions(h.db.db, { userId, now, limit: 20 });
      const questionId = (all.questions.find((q) => q.studyData.length === 0) ?? page.questions[0]!)
        ._id;
      await recordAnswer(h.db.db, {
        userId,
        now,
        input: { questionId, selected: [step % 2 ? "A" : "B"], timeSpentMs: 600 },
      });
      await rateQuestion(h.db.db, { userId, now, questionId, difficulty: step % 3 === 0 ? 0 : 1 });
    }
    // The first pages still took new questions; the later ones were of reviews alone, read with the kept sizes.
    expect(fresh).toBeGreaterThan(0);
    expect(keptSizePages.reviewsOnly - used.reviewsOnly).toBeGreaterThanOrEqual(4);
    expect(keptSizePages.count - used.count).toBeGreaterThan(
      keptSizePages.reviewsOnly - used.reviewsOnly,
    );
  });

  it("counts again after a write this process did not make: another process's answer, an edit, a new question", async () => {
    const now = new Date("2026-06-03T15:00:00Z");
    enableDuePageCache(h.db.db, newDuePageCache());
    const { me, own } = await world(now, {
      scheduler: "fsrs",
      newPerDay: 5,
      byHand: 2,
      later: true,
    });
    const userId = me.user.id;
    const opts = { userId, now, limit: 20 };
    const elsewhere = anotherProcess();
    const writes: Array<[string, () => Promise<unknown>]> = [
      [
        "another process's answer",
        async () => {
          const page = await listDueQuestions(h.db.db, opts);
          await recordAnswer(elsewhere, {
            userId,
            now,
            input: { questionId: page.questions[0]!._id, selected: ["B"], timeSpentMs: 500 },
          });
        },
      ],
      [
        "a question written by hand",
        () => addQuestion(h.db.db, userId, { createdAt: now, byHand: true }),
      ],
      [
        "a leech reset outside the live path",
        () =>
          h.db.db
            .update(studyStates)
            .set({ leech: false, dueAt: new Date(now.getTime() - HOUR) })
            .where(eq(studyStates.userId, userId)),
      ],
      [
        "a key taken away",
        () =>
          h.db.db
            .update(questions)
            .set({ correctAnswer: "", correctAnswers: [] })
            .where(eq(questions.id, own[7]!)),
      ],
    ];
    for (const [what, write] of writes) {
      await listDueQuestions(h.db.db, opts);
      await write();
      const used = keptSizePages.count;
      expect(plain(await listDueQuestions(h.db.db, opts)), what).toEqual(
        plain(await computeDuePage(h.db.db, opts)),
      );
      expect(keptSizePages.count - used, what).toBe(0);
    }
  });

  it("equals a fresh read after any sequence of live and other writes, time and both schedulers", async () => {
    for (const seed of [11, 12, 13, 14]) {
      const next = seededRng(seed);
      const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
      let now = new Date("2026-07-06T13:00:00Z");
      enableDuePageCache(h.db.db, newDuePageCache());
      const { me, own, shared } = await world(now, {
        scheduler: seed % 2 ? "fsrs" : "sm2",
        newPerDay: 2 + (seed % 4),
        leechThreshold: 2,
        byHand: 2,
        later: true,
        shared: 5,
      });
      const userId = me.user.id;
      const elsewhere = anotherProcess();
      const used = keptSizePages.count;
      const usedReviews = keptSizePages.reviewsOnly;
      const steps: string[] = [];
      for (let step = 0; step < 40; step++) {
        const kind = pick([
          "loop",
          "loop",
          "loop",
          "loop",
          "answer",
          "rate",
          "elsewhere",
          "share",
          "hand",
          "time",
        ]);
        const page = await listDueQuestions(h.db.db, { userId, now, limit: 1 });
        const target = page.questions[0]?._id ?? pick(own);
        steps.push(`${kind} ${target.slice(0, 8)}`);
        const selected = [pick(["A", "B", "B"] as const)];
        if (kind === "loop") {
          await recordAnswer(h.db.db, {
            userId,
            now,
            input: { questionId: target, selected, timeSpentMs: 500 },
          });
          const difficulty = pick([0, 1, 2] as const);
          await rateQuestion(h.db.db, { userId, now, questionId: target, difficulty });
        } else if (kind === "answer") {
          await recordAnswer(h.db.db, {
            userId,
            now,
            input: { questionId: target, selected, timeSpentMs: 500 },
          });
        } else if (kind === "rate") {
          await rateQuestion(h.db.db, { userId, now, questionId: target, difficulty: 2 });
        } else if (kind === "elsewhere") {
          await recordAnswer(elsewhere, {
            userId,
            now,
            input: { questionId: target, selected, timeSpentMs: 500 },
          });
        } else if (kind === "share") {
          await toggleShared(pick(shared));
        } else if (kind === "hand") {
          own.push((await addQuestion(h.db.db, userId, { createdAt: now, byHand: true })).id);
        } else {
          now = new Date(now.getTime() + Math.floor(next() * 20) * HOUR);
        }
        await expectFreshPages(userId, now, `seed ${seed}: ${steps.join(", ")}`);
      }
      expect(keptSizePages.count - used, `seed ${seed}`).toBeGreaterThan(10);
      expect(keptSizePages.reviewsOnly - usedReviews, `seed ${seed}`).toBeGreaterThan(0);
      await h.db.db.update(questions).set({ isPublic: false });
    }
  });
});
