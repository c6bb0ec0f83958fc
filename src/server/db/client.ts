import fs from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { acquireDirLock } from "./dir-lock";
import { nameStatements } from "./pglite-named";
import * as schema from "./schema";

export { DataDirLockedError } from "./dir-lock";

export type Schema = typeof schema;
/** The one database type services see, whether PGlite or PostgreSQL is behind it (a transaction is one too). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface DbHandle {
  db: Db;
  kind: "pglite" | "postgres";
  /** Raw SQL for health checks. */
  ping(): Promise<void>;
  /**
   * Calls `onNotify` with the payload of each NOTIFY on `channel`, and `onListening` each time
   * listening starts: notifications sent while a dropped connection was reconnecting are lost, so
   * that is when a listener must assume it missed some. Resolves, once listening, to a function that
   * stops it.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onListening: () => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface CreateDbOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** A PGlite data directory dump to start from (tests' golden image). */
  loadDataDir?: Blob;
  /** In-memory PGlite (tests). */
  memory?: boolean;
  maxConnections?: number;
  /** The embedded database's turn slice (PGLITE_TURN_SLICE_MS, turn-slices.ts); its default when unset. */
  turnSliceMs?: number;
}

/** A server process's PostgreSQL connections unless DATABASE_POOL_SIZE says (decision 436). */
export const POOL_SIZE = { MIN: 3, MAX: 10 } as const;

/**
 * The default for each server process: about two connections per core of the machine, shared by its
 * `workers` processes, never fewer than 3 (a slow import or backup holds one) nor more than the 10 that
 * was the default before. More backends than that on a small machine only take turns on its cores: the
 * study loop ran 22% faster on 2 cores with 4 connections than with 10 (bench/RESULTS.md, issue 35).
 */
export function serverPoolSize(cores: number, workers: number): number {
  const share = Math.ceil((2 * Math.max(1, cores)) / Math.max(1, workers));
  return Math.min(POOL_SIZE.MAX, Math.max(POOL_SIZE.MIN, share));
}

/** The embedded database's buffer pool (PostgreSQL's default is 128MB). */
export const PGLITE_SHARED_BUFFERS = process.env.PGLITE_SHARED_BUFFERS || "16MB";

/** Seconds before the next reconnect attempt: doubling from 50 ms, never more than 1 s. */
export function reconnectDelaySeconds(retries: number): number {
  return Math.min(0.05 * 2 ** Math.max(0, retries), 1);
}

export async function createDb(opts: CreateDbOptions): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const client = postgres(opts.databaseUrl, {
      max: opts.maxConnections ?? 10,
      onnotice: () => {},
      connect_timeout: 10,
      // A query waiting on a connection that is reconnecting runs when the reconnect succeeds, and
      // postgres.js's default backoff grows to 20 s between attempts (its retry count is shared by the
      // pool, so a few seconds of outage reach it): requests sent as PostgreSQL stopped were answered
      // 10-20 s after it was back (bench/pg-outage.ts). Retrying at least once a second keeps that to
      // about a second.
      backoff: reconnectDelaySeconds,
      // Only named statements keep plans: the hot queries prepared once per handle
      // (src/server/db/prepared.ts). PostgreSQL would otherwise plan them again on every call (measured
      // 0.5-1 ms of the due page's 1.5 ms) though their generic plans are as good.
      // No JIT (decision 437): a statement whose estimate passes jit_above_cost was compiled again on
      // every call, 20-50 ms for reads that run in 10 (the rankings' cohort at 7,000 users).
      connection: { plan_cache_mode: "force_generic_plan", jit: "off" },
    });
    const db = drizzlePostgres({ client, schema, casing: "snake_case" }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      ping: async () => {
        await client`select 1`;
      },
      listen: async (channel, onNotify, onListening) => {
        // postgres.js listens on a connection of its own and reconnects it, calling onlisten again.
        const { unlisten } = await client.listen(channel, onNotify, onListening);
        return unlisten;
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
    // Loaded only for the embedded database: a server on PostgreSQL never holds PGlite's code.
    const [{ PGlite }, { pg_trgm }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("@electric-sql/pglite/contrib/pg_trgm"),
    ]);
    const client = await PGlite.create({
      dataDir: dir,
      extensions: { pg_trgm },
      loadDataDir: opts.loadDataDir,
      // PostgreSQL's default 128 MB of shared buffers live in PGlite's WebAssembly memory, which never
      // shrinks; the operating system's file cache still holds the data files behind a smaller pool
      // (docs/decisions/210-lean-server.md).
      startParams: [
        ...PGlite.defaultStartParams,
        "-c",
        `shared_buffers=${PGLITE_SHARED_BUFFERS}`,
        // As on PostgreSQL (above): a kept statement keeps its plan (decision 401).
        "-c",
        "plan_cache_mode=force_generic_plan",
      ],
    });
    // Each statement parsed and planned once, not on every call (pglite-named.ts, decision 401).
    if (process.env.PGLITE_NAMED_STATEMENTS !== "0")
      await nameStatements(client, { sliceMs: opts.turnSliceMs });
    const db = drizzlePglite({ client, schema, casing: "snake_case" }) as unknown as Db;
    return {
      db,
      kind: "pglite",
      ping: async () => {
        await client.query("select 1");
      },
      listen: async (channel, onNotify, onListening) => {
        // One process owns the embedded database, so its connection never drops.
        const unlisten = await client.listen(channel, onNotify);
        onListening();
        return () => unlisten();
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
