import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localDayKey } from "../stats/days";
import {
  catchUpDueDates,
  catchUpEnd,
  catchUpOffered,
  dayOfReviews,
  planCatchUp,
  recallNow,
} from "./catch-up";
import { dayStartMs, interleave, isLeechAfter, newSlotsToday, studyDayOf, takeNew } from "./daily";

describe("new questions per day", () => {
  it("never gives more slots than the limit, nor fewer than none", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.nat(1000), (limit, introduced) => {
        const slots = newSlotsToday(limit, introduced);
        expect(slots).toBeGreaterThanOrEqual(0);
        expect(slots + Math.min(introduced, limit)).toBe(limit);
      }),
    );
  });

  it("respects the limit except for questions written by hand today, which all come in", () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(40), fc.nat(3000), fc.nat(20), (slots, hand, own, pub) => {
        const t = takeNew(slots, { handWrittenToday: hand, ownOlder: own, publicNew: pub });
        expect(t.handWritten).toBe(hand);
        expect(t.total).toBe(Math.max(hand, Math.min(slots, hand + own + pub)));
        // Own bank before the public pick.
        if (t.public > 0) expect(t.own).toBe(own);
      }),
    );
  });

  it("takes 20 of 300 imported questions on a fresh day", () => {
    expect(
      takeNew(newSlotsToday(20, 0), { handWrittenToday: 0, ownOlder: 300, publicNew: 0 }),
    ).toEqual({
      handWritten: 0,
      own: 20,
      public: 0,
      total: 20,
    });
    // 5 written at today's conference, 3 already introduced: 5 + 12 older.
    expect(
      takeNew(newSlotsToday(20, 3), { handWrittenToday: 5, ownOlder: 300, publicNew: 20 }).total,
    ).toBe(17);
  });
});

describe("interleave", () => {
  it("keeps every item once, each kind in its own order, and spreads new questions evenly", () => {
    fc.assert(
      fc.property(fc.nat(60), fc.nat(60), (r, n) => {
        const reviews = Array.from({ length: r }, (_, i) => `r${i}`);
        const fresh = Array.from({ length: n }, (_, i) => `n${i}`);
        const out = interleave(reviews, fresh);
        expect(out.length).toBe(r + n);
        expect(out.filter((x) => x.startsWith("r"))).toEqual(reviews);
        expect(out.filter((x) => x.startsWith("n"))).toEqual(fresh);
        // In any prefix the share of new questions stays within one of its share of the list.
        let seen = 0;
        out.forEach((x, p) => {
          if (x.startsWith("n")) seen++;
          expect(Math.abs(seen - ((p + 1) * n) / (r + n))).toBeLessThanOrEqual(1 + 1e-9);
        });
      }),
    );
  });

  it("alternates 2 reviews and 1 new", () => {
    expect(interleave(["a", "b", "c", "d"], ["X", "Y"]).join("")).toBe(
      "aXbcYd".replace("aX", "aX"),
    );
  });
});

describe("leeches", () => {
  it("marks the failure that reaches the threshold, keeps the mark, and ignores a lower threshold without a failure", () => {
    expect(isLeechAfter({ lapses: 7, leech: false }, 8, 8)).toBe(true);
    expect(isLeechAfter({ lapses: 6, leech: false }, 7, 8)).toBe(false);
    expect(isLeechAfter({ lapses: 8, leech: true }, 8, 20)).toBe(true);
    expect(isLeechAfter({ lapses: 9, leech: false }, 9, 8)).toBe(false);
    fc.assert(
      fc.property(fc.nat(30), fc.integer({ min: 1, max: 30 }), (lapses, threshold) => {
        // Failing one at a time from zero, the mark comes exactly at the threshold-th failure.
        let state = { lapses: 0, leech: false };
        for (let k = 1; k <= lapses; k++) {
          const leech = isLeechAfter(state, k, threshold);
          state = { lapses: k, leech };
        }
        expect(state.leech).toBe(lapses >= threshold);
      }),
    );
  });
});

describe("study day", () => {
  it("starts at local midnight, across daylight saving changes", () => {
    const zone = "America/New_York";
    for (const key of ["2026-03-08", "2026-03-09", "2026-11-01", "2026-11-27"]) {
      const start = dayStartMs(key, zone);
      expect(localDayKey(new Date(start), zone)).toBe(key);
      expect(localDayKey(new Date(start - 1), zone)).not.toBe(key);
    }
    const d = studyDayOf(new Date("2026-11-27T03:00:00Z"), zone);
    expect(d.key).toBe("2026-11-26");
    expect(d.start.toISOString()).toBe("2026-11-26T05:00:00.000Z");
    expect(d.end.toISOString()).toBe("2026-11-27T05:00:00.000Z");
  });

  it("gives each zone's own day start, asked once or many times, in any order", () => {
    const zones = ["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "Not/AZone"];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            zone: fc.constantFrom(...zones),
            at: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
          }),
          { minLength: 1, maxLength: 20 },
        ),
        (asks) => {
          for (const { zone, at } of [...asks, ...asks.slice().reverse()]) {
            const key = localDayKey(new Date(at), zone);
            const start = dayStartMs(key, zone);
            expect(localDayKey(new Date(start), zone)).toBe(key);
            expect(localDayKey(new Date(start - 1), zone)).not.toBe(key);
            expect(start).toBeLessThanOrEqual(at);
          }
        },
      ),
    );
  });
});

describe("catch-up", () => {
  const now = new Date("2026-11-27T15:00:00Z");

  it("conserves every question: each exactly once, on a day within the plan, shares within one", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({ id: fc.uuid(), recall: fc.double({ min: 0, max: 1, noNaN: true }) }),
          {
            selector: (c) => c.id,
            maxLength: 200,
          },
        ),
        fc.integer({ min: 1, max: 30 }),
        (cards, days) => {
          const plan = planCatchUp(cards, days);
          expect(plan.map((p) => p.id).sort()).toEqual(cards.map((c) => c.id).sort());
          const perDay = new Array(days).fill(0);
          for (const p of plan) {
            expect(p.day).toBeGreaterThanOrEqual(0);
            expect(p.day).toBeLessThan(days);
            perDay[p.day]++;
          }
          const used = perDay.filter((_, d) => d < Math.min(days, cards.length));
          if (used.length > 0) expect(Math.max(...used) - Math.min(...used)).toBeLessThanOrEqual(1);
          // Most at risk first: recall never decreases along the plan.
          const recall = new Map(cards.map((c) => [c.id, c.recall]));
          for (let k = 1; k < plan.length; k++) {
            expect(recall.get(plan[k]!.id)!).toBeGreaterThanOrEqual(recall.get(plan[k - 1]!.id)!);
            expect(plan[k]!.day).toBeGreaterThanOrEqual(plan[k - 1]!.day);
          }
          // Every question gets a date, today's share due now, the others on their later days.
          const dates = catchUpDueDates(plan, now, "Europe/Paris");
          expect(dates.size).toBe(cards.length);
          const end = catchUpEnd(now, days, "Europe/Paris");
          for (const p of plan) {
            const due = dates.get(p.id)!;
            if (p.day === 0) expect(due.getTime()).toBeLessThanOrEqual(now.getTime());
            else expect(due.getTime()).toBeGreaterThan(now.getTime());
            expect(due.getTime()).toBeLessThan(end.getTime());
          }
        },
      ),
    );
  });

  it("offers a catch-up past three days of reviews", () => {
    expect(dayOfReviews(0, 0)).toBe(20);
    expect(dayOfReviews(1500, 10)).toBe(150);
    expect(catchUpOffered(60, 20)).toBe(false);
    expect(catchUpOffered(61, 20)).toBe(true);
  });

  it("rates an FSRS card by its retrievability and an SM-2 card by its interval and overdue days", () => {
    const last = new Date(now.getTime() - 10 * 86_400_000);
    const fsrs = recallNow(
      { stability: 10, intervalDays: 10, lastReviewedAt: last, dueAt: now },
      now,
    );
    expect(fsrs).toBeCloseTo(0.9, 5);
    const sm2Short = recallNow(
      { stability: null, intervalDays: 2, lastReviewedAt: last, dueAt: null },
      now,
    );
    const sm2Long = recallNow(
      { stability: null, intervalDays: 30, lastReviewedAt: last, dueAt: null },
      now,
    );
    expect(sm2Short).toBeLessThan(sm2Long);
    expect(
      recallNow({ stability: null, intervalDays: 0, lastReviewedAt: null, dueAt: null }, now),
    ).toBe(0);
  });
});
