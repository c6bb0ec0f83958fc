import path from "node:path";
import pino from "pino";
import { createAiModel } from "./ai/model";
import { buildApp, LOG_REDACT } from "./app";
import { createDb, DataDirLockedError } from "./db/client";
import { runMigrations } from "./db/migrate";
import { loadEnv, projectRoot } from "./env";

async function main(): Promise<void> {
  let env;
  try {
    env = loadEnv();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const logger = pino({
    level: env.LOG_LEVEL,
    redact: { paths: LOG_REDACT, censor: "[redacted]" },
  });

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
        windowMinutes: env.LOGIN_WINDOW_MINUTES,
      },
      aiModel: createAiModel(env),
    },
    logger: { level: env.LOG_LEVEL, redact: { paths: LOG_REDACT, censor: "[redacted]" } },
    trustProxy: env.TRUST_PROXY,
    allowedOrigins: env.ALLOWED_ORIGINS,
    webDir: env.WEB_DIST_DIR
      ? path.resolve(env.WEB_DIST_DIR)
      : path.join(projectRoot(), "dist", "web"),
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down");
    try {
      await app.close();
      await handle.close();
    } finally {
      process.exit(0);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: env.PORT, host: env.HOST });
  logger.info(
    { database: handle.kind, ai: env.OPENAI_API_KEY ? "configured" : "off" },
    `PRITE Study listening on http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT}`,
  );
}

void main();
