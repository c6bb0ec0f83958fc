import { spawnSync } from "node:child_process";
import cluster, { type Worker } from "node:cluster";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import pino, { type Logger } from "pino";
import { aiConfigured, createAiModel } from "./ai/model";
import { buildApp, serverLoggerOptions } from "./app";
import { createSmtpMailer } from "./mail/mailer";
import { createDb, DataDirLockedError, serverPoolSize, type DbHandle } from "./db/client";
import { MigrationError, runMigrations } from "./db/migrate";
import { type Env, loadEnv, oidcSettings, projectRoot } from "./env";
import { closeInSteps } from "./shutdown";
import { EXAM_SWEEP_INTERVAL_MS } from "./features/exams/deadline-sweep";
import { serveClusterMetrics } from "./metrics";
import { startScheduledBackups } from "./features/backup/schedule";
import { COHORT_KEEP_WARM_MS } from "./features/stats/stats-caches";

/** Set on the child that creates a new embedded database and leaves (see prepareEmbeddedDatabase). */
const PREPARE_ONLY = "PRITE_PREPARE_DATABASE_ONLY";

/** Opens the database and brings its schema up to date, or stops the process with the reason. */
async function openDatabase(env: Env, logger: Logger, migrate: boolean): Promise<DbHandle> {
  let handle: DbHandle | undefined;
  try {
    handle = await createDb({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      maxConnections:
        env.DATABASE_POOL_SIZE ?? serverPoolSize(os.availableParallelism(), env.WORKERS),
      turnSliceMs: env.PGLITE_TURN_SLICE_MS,
    });
    if (migrate) await runMigrations(handle);
    return handle;
  } catch (err) {
    // The message names the failed migration's file and says the database was left as it was.
    if (err instanceof DataDirLockedError || err instanceof MigrationError) {
      logger.fatal(err.message);
    } else {
      logger.fatal({ err }, "Could not open the database");
    }
    await handle?.close().catch(() => {});
    process.exit(1);
  }
}

/**
 * A new embedded database is created (initdb and every migration) in a child process that then exits:
 * PGlite's initdb runs in a WebAssembly instance of its own whose memory and compiled code stayed in
 * the server's RSS (+170 MB measured, issue 20 item 4). The server then opens the folder as it would
 * any existing one. Answers false when the child failed (its messages are on stderr already).
 */
function prepareEmbeddedDatabase(env: Env): boolean {
  if (env.DATABASE_URL) return true;
  if (fs.existsSync(path.join(path.resolve(env.DATA_DIR), "pglite", "PG_VERSION"))) return true;
  const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, [PREPARE_ONLY]: "1" },
    stdio: "inherit",
  });
  return child.status === 0;
}

/**
 * The serving process runs PGlite's WebAssembly with V8's baseline compiler (Liftoff) only: the
 * optimizing compiler's work for the functions that get hot left 50-90 MB behind in the process (its
 * compile threads' malloc arenas), the largest share of an idle embedded server's RSS after PGlite's
 * own memory, for a query cost measured in bench/RESULTS.md (docs/decisions/210-lean-server.md).
 * `PGLITE_OPTIMIZE_WASM=1` keeps the optimizing tier. V8 reads the flag when it compiles the module,
 * so it is set before PGlite is imported; the process's only other WebAssembly (undici's HTTP parser,
 * for calls to an AI model) runs on the baseline tier too.
 */
function useBaselineWasmCompiler(env: Env): void {
  if (!env.DATABASE_URL && !env.PGLITE_OPTIMIZE_WASM) v8.setFlagsFromString("--liftoff-only");
}

/** One server process: the database, the HTTP server, and a clean close on SIGTERM or SIGINT. */
async function runServer(env: Env, logger: Logger, opts: { migrate: boolean }): Promise<void> {
  const handle = await openDatabase(env, logger, opts.migrate);
  const app = await buildApp({
    handle,
    config: {
      throttle: {
        maxPerUser: env.LOGIN_MAX_FAILURES_PER_USER,
        maxPerIp: env.LOGIN_MAX_FAILURES_PER_IP,
        maxPerAccount: env.LOGIN_MAX_FAILURES_PER_ACCOUNT,
        windowMinutes: env.LOGIN_WINDOW_MINUTES,
        registrationsPerHour: env.REGISTRATIONS_PER_HOUR_PER_IP,
      },
      aiModel: await createAiModel(env),
      mailer: env.SMTP_URL && env.MAIL_FROM ? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM) : null,
      publicUrl: env.PUBLIC_URL ?? null,
      signIn: {
        passwordSignIn: env.PASSWORD_SIGN_IN === "on",
        ssoName: oidcSettings(env)?.name ?? null,
      },
    },
    oidc: oidcSettings(env),
    logger: serverLoggerOptions(env.LOG_LEVEL),
    trustProxy: env.TRUST_PROXY,
    allowedOrigins: env.ALLOWED_ORIGINS,
    sessionCacheMs: env.SESSION_CACHE_SECONDS * 1000,
    rankingCohortMs: env.RANKING_COHORT_SECONDS * 1000,
    rankingCohortKeepWarmMs: COHORT_KEEP_WARM_MS,
    duePageCache: env.DUE_PAGE_CACHE,
    metricsToken: env.METRICS_TOKEN,
    examSweepMs: EXAM_SWEEP_INTERVAL_MS,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    webDir: env.WEB_DIST_DIR
      ? path.resolve(env.WEB_DIST_DIR)
      : path.join(projectRoot(), "dist", "web"),
  });

  // Every process looks; one takes each backup (schedule.ts).
  const stopBackups = env.BACKUP_DIR
    ? startScheduledBackups({
        handle,
        dir: path.resolve(env.BACKUP_DIR),
        everyMs: env.BACKUP_EVERY,
        keep: env.BACKUP_KEEP,
        log: logger,
      })
    : null;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down");
    // Stops accepting connections and waits for the requests in flight, then closes the database
    // (which releases the embedded database's lock); neither may hold the process forever.
    const code = await closeInSteps(
      [
        { name: "the HTTP server", budgetMs: 10_000, close: () => app.close() },
        ...(stopBackups ? [{ name: "a backup", budgetMs: 10_000, close: stopBackups }] : []),
        { name: "the database", budgetMs: 10_000, close: () => handle.close() },
      ],
      logger,
    );
    process.exit(code);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: env.PORT, host: env.HOST });
  const where = `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT}`;
  if (cluster.isWorker) {
    logger.info({ worker: cluster.worker?.id }, `server process listening on ${where}`);
  } else {
    logger.info(
      { database: handle.kind, ai: aiConfigured(env) ? "configured" : "off" },
      `PRITE Study listening on ${where}`,
    );
  }
}

/** Workers that die on their own this often in a minute stop the whole server instead of looping. */
const MAX_RESTARTS_PER_MINUTE = 5;

/**
 * WORKERS=N on PostgreSQL (docs/decisions/211-several-server-processes.md): this process migrates the
 * database once, then runs N server processes with Node's cluster module, all on one port. It serves
 * no request itself; it replaces a worker that dies, and on SIGTERM or SIGINT asks each to close and
 * leaves with the worst exit code among them.
 */
async function runPrimary(env: Env, logger: Logger): Promise<void> {
  const handle = await openDatabase(env, logger, true);
  await handle.close();

  let closing = false;
  const restarts: number[] = [];
  const codes: number[] = [];
  const fork = () => cluster.fork();
  cluster.on("exit", (worker: Worker, code, signal) => {
    codes.push(code ?? (signal ? 1 : 0));
    if (closing) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(Math.max(0, ...codes));
      return;
    }
    const now = Date.now();
    restarts.push(now);
    while (restarts[0]! < now - 60_000) restarts.shift();
    if (restarts.length > MAX_RESTARTS_PER_MINUTE) {
      logger.fatal(
        `server processes keep stopping (${restarts.length} in a minute); stopping PRITE Study`,
      );
      void shutdown("worker failures");
      return;
    }
    logger.error(
      { worker: worker.id, code, signal },
      "a server process stopped unexpectedly; starting another",
    );
    fork();
  });

  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down every server process");
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    if (workers.length === 0) process.exit(Math.max(0, ...codes));
    for (const worker of workers) worker.process.kill("SIGTERM");
    // Each worker closes within its own 20 s of budgets; one that does not is ended.
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
    }, 25_000).unref();
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  serveClusterMetrics();
  for (let i = 0; i < env.WORKERS; i++) fork();
  let listening = 0;
  cluster.on("listening", () => {
    listening++;
    if (listening === env.WORKERS) {
      logger.info(
        {
          database: "postgres",
          workers: env.WORKERS,
          ai: aiConfigured(env) ? "configured" : "off",
        },
        `PRITE Study listening on http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT} with ${env.WORKERS} server processes`,
      );
    }
  });
}

async function main(): Promise<void> {
  let env;
  try {
    env = loadEnv();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const logger = pino(serverLoggerOptions(env.LOG_LEVEL));

  if (process.env[PREPARE_ONLY]) {
    const handle = await openDatabase(env, logger, true);
    await handle.close();
    process.exit(0);
  }
  if (cluster.isWorker) {
    // The primary has migrated the database already.
    return runServer(env, logger, { migrate: false });
  }
  if (/^\s*(true|yes)\s*$/i.test(process.env.TRUST_PROXY ?? "")) {
    logger.warn(
      "TRUST_PROXY=true is read as 1: the address one reverse proxy in front reports. Write the number of proxies (TRUST_PROXY=2) or their addresses (TRUST_PROXY=10.0.0.5,10.0.1.0/24) to say more.",
    );
  }
  if (env.WORKERS > 1) return runPrimary(env, logger);
  if (!prepareEmbeddedDatabase(env)) process.exit(1);
  useBaselineWasmCompiler(env);
  return runServer(env, logger, { migrate: true });
}

void main();
