import path from "node:path";
import pino from "pino";
import { aiConfigured, createAiModel } from "./ai/model";
import { buildApp, serverLoggerOptions } from "./app";
import { createDb, DataDirLockedError } from "./db/client";
import { runMigrations } from "./db/migrate";
import { loadEnv, projectRoot } from "./env";
import { closeInSteps } from "./shutdown";
import { EXAM_SWEEP_INTERVAL_MS } from "./features/exams/deadline-sweep";

async function main(): Promise<void> {
  let env;
  try {
    env = loadEnv();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const logger = pino(serverLoggerOptions(env.LOG_LEVEL));
  if (/^\s*(true|yes)\s*$/i.test(process.env.TRUST_PROXY ?? "")) {
    logger.warn(
      "TRUST_PROXY=true is read as 1: the address one reverse proxy in front reports. Write the number of proxies (TRUST_PROXY=2) or their addresses (TRUST_PROXY=10.0.0.5,10.0.1.0/24) to say more.",
    );
  }

  let handle;
  try {
    handle = await createDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    await runMigrations(handle);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      logger.fatal(err.message);
    } else {
      logger.fatal({ err }, "Could not open the database");
    }
    await handle?.close().catch(() => {});
    process.exit(1);
  }

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
      aiModel: createAiModel(env),
    },
    logger: serverLoggerOptions(env.LOG_LEVEL),
    trustProxy: env.TRUST_PROXY,
    allowedOrigins: env.ALLOWED_ORIGINS,
    sessionCacheMs: env.SESSION_CACHE_SECONDS * 1000,
    examSweepMs: EXAM_SWEEP_INTERVAL_MS,
    webDir: env.WEB_DIST_DIR
      ? path.resolve(env.WEB_DIST_DIR)
      : path.join(projectRoot(), "dist", "web"),
  });

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
        { name: "the database", budgetMs: 10_000, close: () => handle.close() },
      ],
      logger,
    );
    process.exit(code);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: env.PORT, host: env.HOST });
  logger.info(
    { database: handle.kind, ai: aiConfigured(env) ? "configured" : "off" },
    `PRITE Study listening on http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT}`,
  );
}

void main();
