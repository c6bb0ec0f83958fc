import fs from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by another process (pid ${pid}). ` +
        `Stop that process first, or point the CLI at the running server with --server URL.`,
    );
    this.name = "DataDirLockedError";
  }
}

/** A takeover guard older than this was left by a process that died inside the takeover itself. */
const TAKEOVER_STALE_MS = 10_000;
const TAKEOVER_WAIT_MS = 5_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid in the lock file, NaN when it holds none, null when there is no lock file. */
function readPid(lockPath: string): number | null {
  try {
    return Number.parseInt(fs.readFileSync(lockPath, "utf8").trim(), 10);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** A holder that blocks us: a live process other than this one (a lock with our own pid is a leftover). */
function liveHolder(pid: number | null): pid is number {
  return pid !== null && Number.isFinite(pid) && pid !== process.pid && isAlive(pid);
}

/**
 * Creates the lock file with our pid in one atomic step: the pid is written to a private file first and
 * hard-linked into place, so nobody ever reads a lock file that exists but is still empty.
 */
function tryCreate(lockPath: string): boolean {
  const tmp = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(tmp, String(process.pid), { mode: 0o600 });
  try {
    fs.linkSync(tmp, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    // A file system without hard links: exclusive create, then write (a reader may briefly see it empty).
    if (code === "EPERM" || code === "ENOTSUP" || code === "ENOSYS")
      return createExclusive(lockPath);
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function createExclusive(lockPath: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    fs.writeSync(fd, String(process.pid));
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `fn` while holding the takeover guard (a directory: mkdir is atomic), so that only one process
 * at a time may decide that the lock is stale and replace it.
 */
function withTakeoverGuard<T>(lockPath: string, fn: () => T): T {
  const guard = `${lockPath}.takeover`;
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  for (;;) {
    try {
      fs.mkdirSync(guard);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let age = 0;
      try {
        age = Date.now() - fs.statSync(guard).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      if (age > TAKEOVER_STALE_MS) fs.rmSync(guard, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`Could not lock ${path.dirname(lockPath)}`);
      else sleepSync(20);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(guard, { recursive: true, force: true });
  }
}

/**
 * PGlite is single-process: two writers on one folder corrupt it, so the folder is locked exclusively
 * (`pglite.lock`, holding the owner's pid). A lock whose owner is gone is taken over, and only under the
 * takeover guard, after reading it again: two processes finding the same stale lock can no longer both
 * remove it, nor can one remove the fresh lock the other just made (docs/decisions/063).
 * Returns the release function.
 */
export function acquireDirLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, "pglite.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(lockPath)) return releaser(lockPath);
    const seen = readPid(lockPath);
    if (liveHolder(seen)) throw new DataDirLockedError(dataDir, seen);
    const taken = withTakeoverGuard(lockPath, () => {
      const pid = readPid(lockPath);
      if (liveHolder(pid)) throw new DataDirLockedError(dataDir, pid);
      // Still the dead owner's (or empty): nobody else can replace it while we hold the guard.
      if (pid !== null) fs.rmSync(lockPath, { force: true });
      return tryCreate(lockPath);
    });
    if (taken) return releaser(lockPath);
    // Someone created a fresh lock right after the stale one went: look at it again.
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function releaser(lockPath: string): () => void {
  return () => {
    try {
      if (readPid(lockPath) === process.pid) fs.unlinkSync(lockPath);
    } catch {
      // already gone
    }
  };
}
