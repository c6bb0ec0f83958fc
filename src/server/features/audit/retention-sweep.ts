import type { Db } from "../../db/client";
import { isDatabaseUnavailable } from "../../db/unavailable";
import { sweepAudit } from "./audit.service";

/** How often a server process deletes audit entries past AUDIT_RETENTION_DAYS. */
export const AUDIT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

interface SweepLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Deletes expired audit entries now and every `intervalMs`. Every server process runs one: a delete
 * by age is the same whoever runs it, so several together are harmless. Answers `stop`, which waits
 * for a sweep in flight.
 */
export function startAuditSweep(
  db: Db,
  opts: { retentionDays: number; intervalMs?: number; now?: () => Date; log: SweepLog },
): () => Promise<void> {
  const now = opts.now ?? (() => new Date());
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = (async () => {
      try {
        await sweepAudit(db, now(), opts.retentionDays);
      } catch (err) {
        if (isDatabaseUnavailable(err)) opts.log.warn({}, "audit sweep: database unavailable");
        else opts.log.error({ err }, "audit sweep failed");
      } finally {
        running = null;
      }
    })();
  };
  tick();
  const timer = setInterval(tick, opts.intervalMs ?? AUDIT_SWEEP_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
