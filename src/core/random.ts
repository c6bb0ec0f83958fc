/**
 * A small seeded generator (mulberry32): an exam stores its 32-bit seed, and the same seed over the same
 * pool draws the same questions on every machine; test data and benchmarks use it too. Not for secrets.
 */
export type Rng = () => number;

/** Seeds are unsigned 32-bit integers: they fit a PostgreSQL bigint and JSON exactly. */
export const MAX_SEED = 0xffff_ffff;

export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The first `count` items of a Fisher–Yates shuffle: a uniform sample without repeats, in draw order. */
export function sampleWithoutRepeats<T>(items: readonly T[], count: number, rng: Rng): T[] {
  const pool = [...items];
  const take = Math.max(0, Math.min(count, pool.length));
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(rng() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, take);
}
