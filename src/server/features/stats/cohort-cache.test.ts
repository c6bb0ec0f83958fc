import { describe, expect, it, vi } from "vitest";
import { CohortCache } from "./stats-caches";

/** Decision 432: the cohort is read again in the background from half its age, never served past it. */
const MAX_AGE = 5000;

/** A read whose answer the test releases, counting the reads started. */
function reads() {
  const started: { resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  const read = () =>
    new Promise<string>((resolve, reject) => {
      started.push({ resolve, reject });
    });
  return { started, read };
}

const settle = () => new Promise((r) => setImmediate(r));

describe("the cohort kept between requests", () => {
  it("answers from memory while young, and the requests of the first read share it", async () => {
    const cache = new CohortCache<string>(MAX_AGE);
    const { started, read } = reads();
    const a = cache.get(1000, read);
    const b = cache.get(1001, read);
    expect(started).toHaveLength(1);
    started[0]!.resolve("v1");
    expect(await a).toBe("v1");
    expect(await b).toBe("v1");
    expect(await cache.get(1000 + MAX_AGE / 2 - 1, read)).toBe("v1");
    expect(started).toHaveLength(1);
  });

  it("from half its age answers at once with what it keeps and reads once in the background", async () => {
    const cache = new CohortCache<string>(MAX_AGE);
    const { started, read } = reads();
    const first = cache.get(0, read);
    started[0]!.resolve("v1");
    await first;

    expect(await cache.get(MAX_AGE / 2, read)).toBe("v1");
    expect(await cache.get(MAX_AGE / 2 + 10, read)).toBe("v1");
    expect(started).toHaveLength(2);
    started[1]!.resolve("v2");
    await settle();
    // The new figures count from the request that started their read.
    expect(await cache.get(MAX_AGE / 2 + 20, read)).toBe("v2");
    expect(await cache.get(MAX_AGE - 1, read)).toBe("v2");
    expect(started).toHaveLength(2);
  });

  it("never answers figures past their age: a request then waits for the read", async () => {
    const cache = new CohortCache<string>(MAX_AGE);
    const { started, read } = reads();
    const first = cache.get(0, read);
    started[0]!.resolve("v1");
    await first;

    // A background read started at half the age is still running when the figures reach it.
    expect(await cache.get(MAX_AGE / 2, read)).toBe("v1");
    let answered: string | undefined;
    const late = cache.get(MAX_AGE, read).then((v) => (answered = v));
    await settle();
    expect(answered).toBeUndefined();
    expect(started).toHaveLength(2);
    started[1]!.resolve("v2");
    await late;
    expect(answered).toBe("v2");
  });

  it("a failed background read reaches no request, and the next one past half the age tries again", async () => {
    const cache = new CohortCache<string>(MAX_AGE);
    const { started, read } = reads();
    const first = cache.get(0, read);
    started[0]!.resolve("v1");
    await first;

    expect(await cache.get(MAX_AGE / 2, read)).toBe("v1");
    started[1]!.reject(new Error("connection lost"));
    await settle();
    expect(await cache.get(MAX_AGE / 2 + 1, read)).toBe("v1");
    expect(started).toHaveLength(3);
    // Past its age the failure is the request's own.
    started[2]!.reject(new Error("connection lost"));
    await settle();
    const late = cache.get(MAX_AGE, read);
    expect(started).toHaveLength(4);
    started[3]!.reject(new Error("connection lost"));
    await expect(late).rejects.toThrow("connection lost");
  });

  it("reads again when the clock went back", async () => {
    const cache = new CohortCache<string>(MAX_AGE);
    const { started, read } = reads();
    const first = cache.get(10_000, read);
    started[0]!.resolve("v1");
    await first;
    const back = cache.get(9_000, read);
    expect(started).toHaveLength(2);
    started[1]!.resolve("v2");
    expect(await back).toBe("v2");
  });

  it("kept warm: read again each half age for a while after the last request, so a request after a lull does not wait (decision 438)", async () => {
    vi.useFakeTimers();
    try {
      let clock = 0;
      const cache = new CohortCache<string>(MAX_AGE, { keepWarmMs: 60_000, clock: () => clock });
      const asked: number[] = [];
      let n = 0;
      const read = (at: number) => {
        asked.push(at);
        return Promise.resolve(`v${++n}`);
      };
      expect(await cache.get(0, read)).toBe("v1");
      // A lull of 20 s: nobody asks, the timer reads at each half age, of its own moment.
      for (let t = 0; t < 20_000; t += 500) {
        clock += 500;
        await vi.advanceTimersByTimeAsync(500);
      }
      expect(asked.length).toBeGreaterThanOrEqual(7);
      expect(asked.slice(1).every((at) => at > 0 && at % (MAX_AGE / 2) === 0)).toBe(true);
      // The request after the lull is answered at once from a read younger than half the age.
      const before = asked.length;
      expect(await cache.get(clock, read)).toBe(`v${n}`);
      expect(asked).toHaveLength(before);
      // A minute after the last request the timer stops: no more reads.
      for (let t = 0; t < 70_000; t += 500) {
        clock += 500;
        await vi.advanceTimersByTimeAsync(500);
      }
      const stopped = asked.length;
      clock += 30_000;
      await vi.advanceTimersByTimeAsync(30_000);
      expect(asked).toHaveLength(stopped);
      expect(vi.getTimerCount()).toBe(0);
      // Past its age again, a request waits for the read, and the timer starts again.
      expect(await cache.get(clock, read)).toBe(`v${n}`);
      expect(asked).toHaveLength(stopped + 1);
      expect(vi.getTimerCount()).toBe(1);
      cache.clear();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("without keepWarmMs, reads only when a request asks", async () => {
    vi.useFakeTimers();
    try {
      const cache = new CohortCache<string>(MAX_AGE);
      const { started, read } = reads();
      const first = cache.get(0, read);
      started[0]!.resolve("v1");
      await first;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(started).toHaveLength(1);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
