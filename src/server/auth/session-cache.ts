import type { SessionRow, UserRow } from "../db/schema";

export interface CachedAuth {
  session: Readonly<SessionRow>;
  user: Readonly<UserRow>;
}

/** Where PostgreSQL announces a changed user or session, the user's id as payload (migration 0015). */
export const AUTH_CHANGED_CHANNEL = "auth_changed";

interface Entry {
  auth: CachedAuth;
  storedAt: number;
}

/**
 * Sessions validated in the last few seconds, by session id (the token's hash), so that a client's
 * burst of requests costs one session lookup rather than one each (issue 8: the lookup was a third of
 * the due page's database work; docs/decisions/092-session-cache.md).
 *
 * A cached answer must never outlive a sign-out, a password change or a role change. Those reach the
 * cache three ways: the mutation that made them forgets its user as it finishes (the same client's
 * next request must see it), every write to users or sessions is announced by PostgreSQL on
 * 'auth_changed' (other processes, the CLI, psql), and the lifetime bounds what a dropped listening
 * connection could miss. A lookup that was in flight while anything was forgotten is not stored: it
 * may have read the row before the change.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly idsByUser = new Map<string, Set<string>>();
  private generation = 0;

  constructor(
    readonly lifetimeMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** Take before a lookup and hand to `store` with its result. */
  get epoch(): number {
    return this.generation;
  }

  get size(): number {
    return this.entries.size;
  }

  get(sessionId: string, now: number): CachedAuth | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (now - entry.storedAt >= this.lifetimeMs || now < entry.storedAt) {
      this.remove(sessionId, entry.auth.user.id);
      return undefined;
    }
    return entry.auth;
  }

  /** Keeps a lookup's result unless something was forgotten since `epoch` was taken. */
  store(sessionId: string, auth: CachedAuth, epoch: number, now: number): void {
    if (epoch !== this.generation) return;
    const previous = this.entries.get(sessionId);
    if (previous) this.remove(sessionId, previous.auth.user.id);
    // Oldest first in a Map: the first key is the one stored longest ago.
    while (this.entries.size >= this.maxEntries) {
      const [oldestId, oldest] = this.entries.entries().next().value!;
      this.remove(oldestId, oldest.auth.user.id);
    }
    // Shared by every request that hits it: frozen, so no handler can change another's view.
    const frozen = {
      session: Object.freeze({ ...auth.session }),
      user: Object.freeze({ ...auth.user }),
    };
    this.entries.set(sessionId, { auth: frozen, storedAt: now });
    let ids = this.idsByUser.get(auth.user.id);
    if (!ids) this.idsByUser.set(auth.user.id, (ids = new Set()));
    ids.add(sessionId);
  }

  forgetUser(userId: string): void {
    this.generation++;
    for (const id of this.idsByUser.get(userId) ?? []) this.entries.delete(id);
    this.idsByUser.delete(userId);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.idsByUser.clear();
  }

  private remove(sessionId: string, userId: string): void {
    this.entries.delete(sessionId);
    const ids = this.idsByUser.get(userId);
    ids?.delete(sessionId);
    if (ids && ids.size === 0) this.idsByUser.delete(userId);
  }
}
