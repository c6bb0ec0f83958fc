/**
 * The offline side of the signed-in app (issue 18): keeps the copy fresh after each online visit, sends
 * the queued answers when the connection is there (on start, when it returns, after each answer) and
 * retries with back-off, and tells the screens whether they are online and what is waiting.
 */
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { retryDelayMs } from "./retry";
import { OfflineStore } from "./store";
import type { RefusedAnswer } from "./sync";
import { inBackgroundAfterLoad } from "@/web/lib/after-paint";
import { useOnline } from "@/web/lib/use-online";

export type SyncStatus =
  | { kind: "idle" }
  | { kind: "syncing" }
  | { kind: "synced"; count: number }
  | { kind: "failed"; message: string; retryInMs: number };

export interface Offline {
  online: boolean;
  /** Null until the store has opened (IndexedDB can be unavailable, e.g. some private windows). */
  store: OfflineStore | null;
  waiting: number;
  status: SyncStatus;
  refused: RefusedAnswer[];
  dismissRefused(): void;
  /** Call after queueing an answer: recounts and, online, sends it. */
  queued(): void;
  /** Sends what is queued now (also used before signing out). Resolves when done or failed. */
  syncNow(): Promise<void>;
  /** Re-reads the copy from the server when online (after a session, say). */
  refreshCopy(): Promise<void>;
}

const OfflineContext = createContext<Offline | null>(null);

export function useOffline(): Offline {
  const value = useContext(OfflineContext);
  if (!value) throw new Error("useOffline outside OfflineProvider");
  return value;
}

/** How long the quiet "synced" confirmation stays. */
const SYNCED_NOTICE_MS = 4_000;

export function OfflineProvider({ userId, children }: { userId: string; children: ReactNode }) {
  const utils = trpc.useUtils();
  const online = useOnline();
  const [store, setStore] = useState<OfflineStore | null>(null);
  const [waiting, setWaiting] = useState(0);
  const [status, setStatus] = useState<SyncStatus>({ kind: "idle" });
  const [refused, setRefused] = useState<RefusedAnswer[]>([]);
  const flushing = useRef<Promise<void> | null>(null);
  const failures = useRef(0);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    let opened: OfflineStore | null = null;
    let cancelled = false;
    OfflineStore.open(userId).then(
      async (s) => {
        if (cancelled) return s.close();
        opened = s;
        // Every screen under the frame reads the store: in a transition React renders them again
        // in short slices, not in one long task of the first page's load (issue 20 item 3).
        startTransition(() => setStore(s));
        setWaiting(await s.queueSize());
        // The dashboard's last figures while the server cannot be asked.
        const summary = await s.summary();
        if (summary && !navigator.onLine && !utils.stats.summary.getData()) {
          utils.stats.summary.setData(undefined, summary);
        }
      },
      () => setStore(null),
    );
    return () => {
      cancelled = true;
      opened?.close();
    };
  }, [userId, utils]);

  const refreshCopy = useCallback(async () => {
    if (!store || !navigator.onLine) return;
    try {
      const [copy, summary] = await Promise.all([
        utils.client.study.offlineCopy.query(),
        utils.stats.summary.fetch(),
      ]);
      // Answers still queued are not in the server's copy yet: keep the copy until they are sent.
      if ((await store.queueSize()) > 0) return;
      await store.saveCopy(copy);
      await store.saveSummary(summary);
    } catch {
      // The previous copy stays; the next online visit tries again.
    }
  }, [store, utils]);

  const flush = useCallback((): Promise<void> => {
    if (!store || !navigator.onLine) return Promise.resolve();
    if (flushing.current) return flushing.current;
    clearTimeout(retryTimer.current);
    const run = (async () => {
      try {
        // With nothing to send the status stays as it is: every change of it re-renders the screens
        // that read it, and this runs on every start.
        const work = (await store.queueSize()) > 0 || (await store.pending()) !== undefined;
        if (work) setStatus({ kind: "syncing" });
        // The offline scheduler loads only when there is something to send: not in the first load.
        const { sent, refused: newlyRefused } = work
          ? await import("./sync").then(({ sendQueued }) =>
              sendQueued(
                store,
                (input) => utils.client.study.sync.mutate(input),
                () => void store.queueSize().then(setWaiting),
              ),
            )
          : { sent: 0, refused: [] };
        setWaiting(await store.queueSize());
        if (newlyRefused.length > 0) setRefused((prev) => [...prev, ...newlyRefused]);
        failures.current = 0;
        if (sent > 0) {
          setStatus({ kind: "synced", count: sent });
          void utils.stats.invalidate();
          void utils.study.due.invalidate();
          setTimeout(
            () => setStatus((s) => (s.kind === "synced" ? { kind: "idle" } : s)),
            SYNCED_NOTICE_MS,
          );
        } else {
          setStatus((s) => (s.kind === "idle" ? s : { kind: "idle" }));
        }
        await refreshCopy();
      } catch (error) {
        // Kept in the console for whoever diagnoses a sync that keeps failing on a device.
        console.warn("Offline sync failed", error);
        failures.current += 1;
        const retryInMs = retryDelayMs(failures.current);
        setStatus({
          kind: "failed",
          message: errorMessage(error, "The server could not be reached"),
          retryInMs,
        });
        retryTimer.current = setTimeout(() => void flush(), retryInMs);
      } finally {
        flushing.current = null;
      }
    })();
    flushing.current = run;
    return run;
  }, [refreshCopy, store, utils]);

  // Whenever the connection comes back, at once; on start, in the background after the first screen
  // (inBackgroundAfterLoad): the copy's download and IndexedDB writes otherwise land among the first
  // page's own requests and long tasks on a phone (issue 20 item 3).
  // The latest flush through a ref: a re-render must not cancel the start-up's idle wait.
  const started = useRef(false);
  const latestFlush = useRef(flush);
  latestFlush.current = flush;
  useEffect(() => {
    if (!online || !store) return;
    if (started.current) {
      void latestFlush.current();
      return;
    }
    return inBackgroundAfterLoad(() => {
      started.current = true;
      void latestFlush.current();
    });
  }, [online, store]);

  useEffect(() => () => clearTimeout(retryTimer.current), []);

  const queued = useCallback(() => {
    if (!store) return;
    void store.queueSize().then(setWaiting);
    if (navigator.onLine) void flush();
  }, [flush, store]);

  const value = useMemo<Offline>(
    () => ({
      online,
      store,
      waiting,
      status,
      refused,
      dismissRefused: () => setRefused([]),
      queued,
      syncNow: flush,
      refreshCopy,
    }),
    [online, store, waiting, status, refused, queued, flush, refreshCopy],
  );
  return <OfflineContext.Provider value={value}>{children}</OfflineContext.Provider>;
}
