/**
 * Helpers of the bigram index's counting (text-index.ts): a binary search over sorted lengths, and
 * (the counters themselves stay in text-index.ts: called across modules, V8 did not inline them). Pure.
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
