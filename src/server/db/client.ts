import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The one database type services see, whether PGlite or PostgreSQL is behind it (a transaction is one too). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface DbHandle {
  db: Db;
  kind: "pglite" | "postgres";
  /** Raw SQL for health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** PGlite is single-process: two writers on one folder corrupt it, so the folder is locked exclusively. */
function acquireDirLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, "pglite.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, "wx", 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => {
        try {
          if (fs.readFileSync(lockPath, "utf8").trim() === String(process.pid))
            fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number.parseInt(fs.readFileSync(lockPath, "utf8").trim(), 10);
      if (Number.isFinite(pid) && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(dataDir, pid);
      }
      // A crashed process left the lock behind: take it over.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

export interface CreateDbOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** A PGlite data directory dump to start from (tests' golden image). */
  loadDataDir?: Blob;
  /** In-memory PGlite (tests). */
  memory?: boolean;
  maxConnections?: number;
}

export async function createDb(opts: CreateDbOptions): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const client = postgres(opts.databaseUrl, {
      max: opts.maxConnections ?? 10,
      onnotice: () => {},
      connect_timeout: 10,
    });
    const db = drizzlePostgres({ client, schema, casing: "snake_case" }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      ping: async () => {
        await client`select 1`;
      },
      close: async () => {
        await client.end({ timeout: 5 });
      },
    };
  }

  let release = () => {};
  let dir: string | undefined;
  if (!opts.memory) {
    const dataDir = path.resolve(opts.dataDir ?? "./data");
    fs.mkdirSync(dataDir, { recursive: true });
    release = acquireDirLock(dataDir);
    dir = path.join(dataDir, "pglite");
  }
  try {
    const client = await PGlite.create({
      dataDir: dir,
      extensions: { pg_trgm },
      loadDataDir: opts.loadDataDir,
    });
    const db = drizzlePglite({ client, schema, casing: "snake_case" }) as unknown as Db;
    return {
      db,
      kind: "pglite",
      ping: async () => {
        await client.query("select 1");
      },
      close: async () => {
        try {
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
