/**
 * A per-key sliding-window limiter kept in memory. docs/ARCHITECTURE.md allows coarse per-instance limits in
 * memory: N replicas each allow the limit, which still bounds the cost of a runaway client.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Records a hit for `key` unless the limit is reached; returns the wait in ms when refused. */
  take(key: string, now: number): { ok: true } | { ok: false; retryAfterMs: number } {
    const since = now - this.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      return { ok: false, retryAfterMs: recent[0]! + this.windowMs - now };
    }
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > 10_000) this.prune(since);
    return { ok: true };
  }

  private prune(since: number): void {
    for (const [key, times] of this.hits) {
      if (times.every((t) => t <= since)) this.hits.delete(key);
    }
  }

  reset(): void {
    this.hits.clear();
  }
}
