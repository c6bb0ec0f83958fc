import {
  createTRPCClient,
  httpLink,
  TRPCClientError,
  type TRPCClient,
  type TRPCLink,
} from "@trpc/client";
import { TRPCError } from "@trpc/server";
import { observable } from "@trpc/server/observable";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createDb, type DbHandle } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { trimEndChars } from "../src/core/text";
import { users, type UserRow } from "../src/server/db/schema";
import { loadEnv } from "../src/server/env";
import { createAiModel } from "../src/server/ai/model";
import { createContextInner } from "../src/server/trpc/context";
import { errorMessage } from "../src/server/trpc/init";
import { createCaller, type AppRouter } from "../src/server/trpc/router";
import { readConfig } from "./config";
import { CliError } from "./output";

export type Api = TRPCClient<AppRouter>;

export interface GlobalOptions {
  server?: string;
  local?: boolean;
  user?: string;
  json?: boolean;
  verbose?: boolean;
}

export interface Session {
  api: Api;
  mode: "local" | "remote";
  /** Local mode only: the open database (for operator commands such as `seed --synthetic`). */
  handle?: DbHandle;
  /** Remote mode only: the server spoken to. */
  server?: string;
  /** Remote mode: whether a stored token is sent (a --server other than the login's sends none). */
  signedIn?: boolean;
  actingAs: string | null;
  close(): Promise<void>;
}

/**
 * Local mode runs procedures in-process through createCaller; this link gives it the same typed client
 * as remote mode, and round-trips results through JSON so both modes print exactly the same thing.
 */
export function callerLink(caller: ReturnType<typeof createCaller>): TRPCLink<AppRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        const fn = op.path
          .split(".")
          .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
          input: unknown,
        ) => Promise<unknown>;
        fn(op.input)
          .then((data) => {
            observer.next({
              result: { type: "data", data: JSON.parse(JSON.stringify(data ?? null)) },
            });
            observer.complete();
          })
          .catch((err: unknown) => observer.error(localError(err)));
        return () => {};
      });
}

/**
 * A procedure's error as a remote client sees it: the server's words (errorMessage, as the error formatter
 * sends them) and `data.code`; the original stack is kept for --verbose.
 */
function localError(err: unknown): TRPCClientError<AppRouter> {
  const code = err instanceof TRPCError ? err.code : "INTERNAL_SERVER_ERROR";
  const clientError = TRPCClientError.from<AppRouter>({
    error: {
      message: errorMessage(err),
      code: TRPC_ERROR_CODES_BY_KEY[code],
      data: { code, httpStatus: 0, path: undefined },
    },
  });
  if (err instanceof Error && err.stack) clientError.stack = err.stack;
  return clientError;
}

/** The typed client over an in-process caller: local mode, and the CLI's function-level tests. */
export function apiFromCaller(caller: ReturnType<typeof createCaller>): Api {
  return createTRPCClient<AppRouter>({ links: [callerLink(caller)] });
}

async function findUser(handle: DbHandle, name: string | undefined): Promise<UserRow | null> {
  if (name) {
    const [row] = await handle.db
      .select()
      .from(users)
      .where(sql`lower(${users.username}) = lower(${name})`)
      .limit(1);
    if (!row) throw new CliError(`No user named '${name}'.`);
    return row;
  }
  // The operator on the server's machine acts as the first admin unless told otherwise.
  const [admin] = await handle.db
    .select()
    .from(users)
    .where(sql`${users.isAdmin}`)
    .orderBy(users.createdAt)
    .limit(1);
  return admin ?? null;
}

/**
 * A lock left in the embedded data folder by a process that is gone (a killed import, a crash): the
 * database takes it over on open; the CLI says so, naming the file, so the user knows what happened.
 */
export function staleLock(dataDir: string): { path: string; pid: number } | null {
  const lockPath = path.join(path.resolve(dataDir), "pglite.lock");
  let pid: number;
  try {
    pid = Number.parseInt(fs.readFileSync(lockPath, "utf8").trim(), 10);
  } catch {
    return null;
  }
  if (!Number.isFinite(pid) || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH" ? { path: lockPath, pid } : null;
  }
}

/**
 * The database of DATABASE_URL or DATA_DIR, opened directly (local mode), without migrating it. Notes
 * a stale lock on stderr (not with --json, whose stderr carries only `{"error": …}`).
 */
export async function openDatabase(opts: GlobalOptions): Promise<DbHandle> {
  const env = loadEnv();
  if (!env.DATABASE_URL && !opts.json) {
    const stale = staleLock(env.DATA_DIR);
    if (stale) {
      process.stderr.write(
        `Note: ${stale.path} was left by process ${stale.pid}, which is no longer running (an interrupted command?); taking it over.\n`,
      );
    }
  }
  return createDb({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    maxConnections: 4,
    turnSliceMs: env.PGLITE_TURN_SLICE_MS,
  });
}

/**
 * Commands that work on the database itself (`db migrate`, `seed --synthetic`) refuse remote mode as a
 * usage error, naming the flag that gets them local mode.
 */
export function requireLocal(opts: GlobalOptions, command: string): void {
  if (opts.local) return;
  if (opts.server)
    throw new CliError(
      `${command} works on the local database only: drop --server ${opts.server}.`,
      2,
    );
  const stored = readConfig().server;
  if (stored)
    throw new CliError(
      `${command} works on the local database only: add --local (you are logged in to ${stored}).`,
      2,
    );
}

export async function openLocal(opts: GlobalOptions): Promise<Session> {
  const env = loadEnv();
  const handle = await openDatabase(opts);
  try {
    await runMigrations(handle);
    const user = await findUser(handle, opts.user ?? process.env.PRITE_USER);
    const session = user
      ? {
          id: "cli-local",
          userId: user.id,
          expiresAt: new Date(Date.now() + 3600_000),
          createdAt: new Date(),
        }
      : null;
    const caller = createCaller(
      createContextInner({
        db: handle.db,
        user,
        session,
        ip: "cli",
        returnToken: true,
        config: { aiModel: await createAiModel(env), publicUrl: env.PUBLIC_URL ?? null },
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      }),
    );
    return {
      api: apiFromCaller(caller),
      mode: "local",
      handle,
      actingAs: user?.username ?? null,
      close: () => handle.close(),
    };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** 'http://host:3000/' and 'http://host:3000' are the same server. */
export function sameServer(a: string | undefined, b: string | undefined): boolean {
  const norm = (u: string | undefined) =>
    u === undefined ? undefined : trimEndChars(u.trim(), "/").toLowerCase();
  return a !== undefined && b !== undefined && norm(a) === norm(b);
}

/** A client for `server`; with a token it acts as `username` (the stored login's). */
export function openRemote(
  server: string,
  token: string | undefined,
  username: string | null = null,
): Session {
  const base = trimEndChars(server, "/");
  return {
    api: createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: `${base}/trpc`,
          headers: () => ({
            "x-prite-client": "cli",
            "x-time-zone": Intl.DateTimeFormat().resolvedOptions().timeZone,
            ...(token ? { "x-auth-token": token } : {}),
          }),
        }),
      ],
    }),
    mode: "remote",
    server: base,
    signedIn: Boolean(token),
    actingAs: token ? username : null,
    close: async () => {},
  };
}

/**
 * --server or a stored login → remote; otherwise (or with --local) the database directly. The stored
 * token goes only to the server it was issued by.
 */
export async function openSession(opts: GlobalOptions): Promise<Session> {
  const config = readConfig();
  const server = opts.local ? undefined : (opts.server ?? config.server);
  if (server) {
    const ours = sameServer(server, config.server);
    return openRemote(
      server,
      ours ? config.token : undefined,
      ours ? (config.username ?? null) : null,
    );
  }
  return openLocal(opts);
}
