/**
 * Helpers of the bigram index's counting (text-index.ts): a binary search over sorted lengths, and
 * the bit-sliced counters' carry and comparison. Pure.
 */

export function lowerBound(values: Int32Array, from: number, to: number, target: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where at least two of three bit-sliced words are set: the carries of adding them bit by bit. */
export function carries(x: number, y: number, z: number): number {
  return (x & y) | ((x ^ y) & z);
}

/**
 * Bit-parallel "count ≥ target" over 32 texts whose counts are held bit-sliced: ones, twos, fours,
 * eights, then `high[p]` for 16·2^p. A mask of the texts that reach it.
 */
export function atLeast(
  target: number,
  ones: number,
  twos: number,
  fours: number,
  eights: number,
  high: Int32Array,
  planesUsed: number,
): number {
  if (target <= 0) return -1;
  if (target >= 2 ** (4 + planesUsed)) return 0;
  // From the highest plane down: `equal` holds the texts whose counter matches the target's bits so
  // far, `greater` those already above it. Without branches on the target's bits (a third of the
  // search's time went here with them), and done as soon as no counter still ties.
  let greater = 0;
  let equal = -1;
  for (let p = planesUsed - 1; p >= 0; p--) {
    const plane = high[p]!;
    const bit = -((target >>> (p + 4)) & 1);
    greater |= equal & plane & ~bit;
    equal &= ~(plane ^ bit);
    if (equal === 0) return greater;
  }
  let bit = -((target >>> 3) & 1);
  greater |= equal & eights & ~bit;
  equal &= ~(eights ^ bit);
  bit = -((target >>> 2) & 1);
  greater |= equal & fours & ~bit;
  equal &= ~(fours ^ bit);
  bit = -((target >>> 1) & 1);
  greater |= equal & twos & ~bit;
  equal &= ~(twos ^ bit);
  bit = -(target & 1);
  greater |= equal & ones & ~bit;
  equal &= ~(ones ^ bit);
  return greater | equal;
}
