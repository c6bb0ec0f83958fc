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
import { sql } from "drizzle-orm";
import { createDb, type DbHandle } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
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
  /** Local mode only: the open database (for operator commands such as `db migrate`). */
  handle?: DbHandle;
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
  } as never);
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

export async function openLocal(opts: GlobalOptions): Promise<Session> {
  const env = loadEnv();
  const handle = await createDb({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    maxConnections: 4,
  });
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
        config: { aiModel: createAiModel(env) },
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

export function openRemote(server: string, token: string | undefined): Session {
  const base = server.replace(/\/+$/, "");
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
    actingAs: readConfig().username ?? null,
    close: async () => {},
  };
}

/** --server or a stored login → remote; otherwise (or with --local) the database directly. */
export async function openSession(opts: GlobalOptions): Promise<Session> {
  const config = readConfig();
  const server = opts.local ? undefined : (opts.server ?? config.server);
  if (server) {
    const token = opts.server && opts.server !== config.server ? undefined : config.token;
    return openRemote(server, token);
  }
  return openLocal(opts);
}
