import path from "node:path";
import { z } from "zod";

const booleanish = (name: string) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"], {
      error: `${name} must be true or false (or 1/0, yes/no)`,
    })
    .transform((v) => v === "true" || v === "1" || v === "yes");

const positiveInt = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a whole number of at least 1` })
    .int(`${name} must be a whole number of at least 1`)
    .min(1, `${name} must be a whole number of at least 1`);

const ZEnv = z.object({
  NODE_ENV: z
    .enum(["development", "production", "test"], {
      error: "NODE_ENV must be development, production or test",
    })
    .default("production"),
  PORT: z.coerce
    .number({ error: "PORT must be a port number from 0 to 65535" })
    .int("PORT must be a port number from 0 to 65535")
    .min(0, "PORT must be a port number from 0 to 65535")
    .max(65535, "PORT must be a port number from 0 to 65535")
    .default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://")
    .optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url("OPENAI_BASE_URL must be a URL").optional(),
  AI_MODEL: z.string().min(1).default("gpt-4o-mini"),
  ALLOWED_ORIGINS: z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(",")
        .map((o) => o.trim().replace(/\/+$/, ""))
        .filter(Boolean),
    ),
  TRUST_PROXY: booleanish("TRUST_PROXY").default(false),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      error: "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
  LOGIN_MAX_FAILURES_PER_USER: positiveInt("LOGIN_MAX_FAILURES_PER_USER").default(10),
  LOGIN_MAX_FAILURES_PER_IP: positiveInt("LOGIN_MAX_FAILURES_PER_IP").default(100),
  LOGIN_WINDOW_MINUTES: positiveInt("LOGIN_WINDOW_MINUTES").default(10),
  SESSION_CACHE_SECONDS: z.coerce
    .number({ error: "SESSION_CACHE_SECONDS must be a whole number from 0 to 300" })
    .int("SESSION_CACHE_SECONDS must be a whole number from 0 to 300")
    .min(0, "SESSION_CACHE_SECONDS must be a whole number from 0 to 300")
    .max(300, "SESSION_CACHE_SECONDS must be a whole number from 0 to 300")
    .default(30),
  MIGRATIONS_DIR: z.string().optional(),
  WEB_DIST_DIR: z.string().optional(),
});

export type Env = z.infer<typeof ZEnv>;

/** Reads the environment once at boot; a bad value stops the process with every problem listed. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = ZEnv.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/** The project root, found from the working directory so bundled builds resolve it too. */
export function projectRoot(): string {
  return process.env.PRITE_ROOT ? path.resolve(process.env.PRITE_ROOT) : process.cwd();
}
