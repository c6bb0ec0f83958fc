/**
 * The offline copy in IndexedDB (issue 18), one database per user so nothing of one resident is read
 * in another's session: the due questions with their states, the dashboard's last figures, the answer
 * waiting for its rating, and the queue of answers to sync. `idb` wraps IndexedDB's events in promises.
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from "idb";
import type { RouterOutputs, SessionUser } from "@/web/lib/trpc";
import type { OfflineCopy, PendingAnswer, QueuedReview } from "./local-study";

type Summary = RouterOutputs["stats"]["summary"];

interface OfflineSchema extends DBSchema {
  kv: {
    key: "copy" | "summary" | "pending";
    value: OfflineCopy | Summary | PendingAnswer;
  };
  queue: { key: string; value: QueuedReview; indexes: { seq: number } };
}

const PREFIX = "prite-offline-";
const VERSION = 2;
/** The last signed-in user, so the app can open without the server; removed on sign-out. */
const USER_KEY = "prite-offline-user";

export class OfflineStore {
  private constructor(
    readonly userId: string,
    private readonly db: IDBPDatabase<OfflineSchema>,
  ) {}

  static async open(userId: string): Promise<OfflineStore> {
    const db: IDBPDatabase<OfflineSchema> = await openDB<OfflineSchema>(PREFIX + userId, VERSION, {
      // Each store is made if missing, whatever the old version: a database someone opened under
      // this name without them (version 1, empty) must not leave the app without its stores.
      upgrade(db) {
        if (!db.objectStoreNames.contains("kv")) db.createObjectStore("kv");
        if (!db.objectStoreNames.contains("queue")) {
          db.createObjectStore("queue", { keyPath: "id" }).createIndex("seq", "seq");
        }
      },
      // Erasing (sign-out, another user) must not wait on this connection: let it go at once.
      blocking() {
        db.close();
      },
    });
    return new OfflineStore(userId, db);
  }

  async copy(): Promise<OfflineCopy | undefined> {
    return (await this.db.get("kv", "copy")) as OfflineCopy | undefined;
  }

  async saveCopy(copy: OfflineCopy): Promise<void> {
    await this.db.put("kv", copy, "copy");
  }

  async summary(): Promise<Summary | undefined> {
    return (await this.db.get("kv", "summary")) as Summary | undefined;
  }

  async saveSummary(summary: Summary): Promise<void> {
    await this.db.put("kv", summary, "summary");
  }

  async pending(): Promise<PendingAnswer | undefined> {
    return (await this.db.get("kv", "pending")) as PendingAnswer | undefined;
  }

  async savePending(pending: PendingAnswer | null): Promise<void> {
    if (pending) await this.db.put("kv", pending, "pending");
    else await this.db.delete("kv", "pending");
  }

  /**
   * Queues a settled answer and stores the copy it changed, in one transaction: the queue and the
   * copy never disagree about whether an answer was given.
   */
  async settle(review: Omit<QueuedReview, "seq">, copy: OfflineCopy | undefined): Promise<void> {
    const tx = this.db.transaction(["queue", "kv"], "readwrite");
    const queue = tx.objectStore("queue");
    const last = await queue.index("seq").openCursor(null, "prev");
    await queue.put({ ...review, seq: (last?.value.seq ?? 0) + 1 });
    const kv = tx.objectStore("kv");
    if (copy) await kv.put(copy, "copy");
    await kv.delete("pending");
    await tx.done;
  }

  /** The oldest `limit` queued answers, in the order they were given. */
  async queued(limit = Infinity): Promise<QueuedReview[]> {
    const out: QueuedReview[] = [];
    let cursor = await this.db.transaction("queue").store.index("seq").openCursor();
    while (cursor && out.length < limit) {
      out.push(cursor.value);
      cursor = await cursor.continue();
    }
    return out;
  }

  async queueSize(): Promise<number> {
    return this.db.count("queue");
  }

  async forget(ids: readonly string[]): Promise<void> {
    const tx = this.db.transaction("queue", "readwrite");
    await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
  }

  close(): void {
    this.db.close();
  }
}

/** Deletes a user's offline copy and queue, and the remembered user if it is them. */
export async function eraseOfflineData(userId: string): Promise<void> {
  if (rememberedUser()?._id === userId) localStorage.removeItem(USER_KEY);
  await deleteDB(PREFIX + userId);
}

export function rememberUser(user: SessionUser): void {
  try {
    localStorage.setItem(USER_KEY, JSON.stringify(user));
  } catch {
    // Storage full or disabled: the app then needs the server to open, as before.
  }
}

export function rememberedUser(): SessionUser | null {
  try {
    const raw = localStorage.getItem(USER_KEY);
    return raw ? (JSON.parse(raw) as SessionUser) : null;
  } catch {
    return null;
  }
}
