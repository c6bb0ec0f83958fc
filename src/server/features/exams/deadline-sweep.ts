import type { Db } from "../../db/client";
import { isDatabaseUnavailable } from "../../db/unavailable";
import { sweepExpiredExams } from "./exams.service";

/** How often a server process looks for timed exams whose time ran out. */
export const EXAM_SWEEP_INTERVAL_MS = 5_000;

interface SweepLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Submits expired timed exams every `intervalMs`, also when nobody has them open. Every server process
 * runs one; `sweepExpiredExams` makes them safe together. A sweep never overlaps the previous one, and
 * a failure (the database restarting) is logged and retried at the next tick. Answers `stop`, which
 * waits for a sweep in flight, so the database can be closed after it.
 */
export function startExamSweep(
  db: Db,
  opts: { intervalMs?: number; now?: () => Date; log: SweepLog },
): () => Promise<void> {
  const now = opts.now ?? (() => new Date());
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = (async () => {
      try {
        // Batches of 100 until none are left, so a backlog clears in one tick.
        while (!stopped && (await sweepExpiredExams(db, { now: now() })).length === 100);
      } catch (err) {
        if (isDatabaseUnavailable(err)) opts.log.warn({}, "exam sweep: database unavailable");
        else opts.log.error({ err }, "exam sweep failed");
      } finally {
        running = null;
      }
    })();
  };
  const timer = setInterval(tick, opts.intervalMs ?? EXAM_SWEEP_INTERVAL_MS);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
