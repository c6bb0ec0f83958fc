/**
 * Issue 24 item 2: a client that sends the same zone in thousands of letter cases neither grows the
 * server's caches nor rewrites the user's row.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalTimeZone, localDayKey, timeZoneCacheSizes } from "../../../core/stats";
import { createHarness, type Harness } from "../../test/harness";

/** The i-th of 2^n letter-case spellings of `zone`. */
function spelling(zone: string, i: number): string {
  let bit = 0;
  return [...zone]
    .map((ch) => {
      if (!/[a-z]/i.test(ch)) return ch;
      const upper = (i >> bit++) & 1;
      return upper ? ch.toUpperCase() : ch.toLowerCase();
    })
    .join("");
}

const ZONE = "America/Los_Angeles";

describe("time zones sent by clients", () => {
  it("are stored in the runtime's canonical spelling", () => {
    expect(canonicalTimeZone("america/LOS_angeles")).toBe(ZONE);
    expect(canonicalTimeZone("utc")).toBe("UTC");
    expect(canonicalTimeZone("Mars/Olympus_Mons")).toBeNull();
    expect(canonicalTimeZone("x".repeat(65))).toBeNull();
  });

  it("12,000 spellings keep the caches within their bounds", () => {
    const when = new Date("2025-06-01T12:00:00Z");
    for (let i = 0; i < 12_000; i++) {
      expect(localDayKey(when, spelling(ZONE, i))).toBe("2025-06-01");
    }
    const sizes = timeZoneCacheSizes();
    expect(sizes.spellings).toBeLessThanOrEqual(1_000);
    expect(sizes.zones).toBeLessThanOrEqual(32);
  });
});

describe("the stored zone", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("is written once; another letter case of the same zone writes nothing", async () => {
    const { user } = await h.user();
    const version = async () => {
      const rows = await h.db.db.execute<{ tz: string; v: string }>(
        sql`select time_zone as tz, xmin::text as v from users where id = ${user.id}`,
      );
      const list = Array.isArray(rows) ? rows : (rows as unknown as { rows: unknown[] }).rows;
      return list[0] as { tz: string; v: string };
    };
    const first = await h.callerFor(user, { timeZone: "america/los_angeles" });
    await first.stats.summary();
    const stored = await version();
    expect(stored.tz).toBe(ZONE);
    for (let i = 0; i < 20; i++) {
      const caller = await h.callerFor(user, { timeZone: spelling(ZONE, i * 37) });
      await caller.stats.summary();
    }
    expect(await version()).toEqual(stored);
  });
});
