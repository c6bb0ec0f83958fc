import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Db, DbHandle } from "../../db/client";
import { queryRows } from "../../db/raw";
import { SERVER_ORIGIN } from "../audit/audit.service";
import { writeBackupFile } from "./backup.service";

/** The advisory lock the server processes sharing a database take a scheduled backup under. */
const SCHEDULED_BACKUP_LOCK = 70_330_001;

const FILE_PATTERN = /^prite-backup-(\d{8}T\d{6}Z)\.jsonl\.gz$/;

/** `prite-backup-20261127T120000Z.jsonl.gz`: names sort by time. */
export function backupFileName(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `prite-backup-${stamp}.jsonl.gz`;
}

/** The scheduled backups in `dir`, newest first. */
export function scheduledBackups(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => FILE_PATTERN.test(n))
    .sort()
    .reverse();
}

function takenAt(name: string): number {
  const s = FILE_PATTERN.exec(name)![1]!;
  return Date.parse(
    `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}Z`,
  );
}

export interface ScheduleOptions {
  handle: Pick<DbHandle, "db" | "kind">;
  dir: string;
  everyMs: number;
  keep: number;
  now?: () => Date;
  log?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * One look at the schedule: when the newest backup in `dir` is `everyMs` old (or there is none), takes
 * one and deletes all but the newest `keep`. The look is made again under an advisory lock inside the
 * backup's own transaction, so of several server processes on one database one takes it. Answers the
 * file written, or null.
 */
export async function backupIfDue(opts: ScheduleOptions): Promise<string | null> {
  const now = (opts.now ?? (() => new Date()))();
  const due = () => {
    const newest = scheduledBackups(opts.dir)[0];
    return !newest || now.getTime() - takenAt(newest) >= opts.everyMs;
  };
  if (!due()) return null;
  fs.mkdirSync(opts.dir, { recursive: true });
  const file = path.join(opts.dir, backupFileName(now));
  const result = await writeBackupFile(opts.handle.db, file, {
    kind: opts.handle.kind,
    now,
    audit: { actor: null, origin: SERVER_ORIGIN, detail: { scheduled: true } },
    proceed: async (tx: Db) => {
      const [lock] = await queryRows<{ ok: boolean }>(
        tx,
        sql`select pg_try_advisory_xact_lock(${SCHEDULED_BACKUP_LOCK}) as ok`,
      );
      return Boolean(lock?.ok) && due();
    },
  });
  if (!result) return null;
  for (const old of scheduledBackups(opts.dir).slice(opts.keep)) {
    fs.rmSync(path.join(opts.dir, old), { force: true });
  }
  opts.log?.info({ file, rows: result.rows }, "backup written");
  return file;
}

/**
 * Looks at the schedule every minute (or every `everyMs`, when shorter), so a server restarted more
 * often than it backs up still does; answers a function that stops it and waits for a backup in flight.
 */
export function startScheduledBackups(opts: ScheduleOptions): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    // A backup longer than the interval is not joined by another.
    running ??= backupIfDue(opts)
      .catch((err: unknown) => opts.log?.error({ err }, "scheduled backup failed"))
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, Math.min(opts.everyMs, 60_000));
  timer.unref();
  tick();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
