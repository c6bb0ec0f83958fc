import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { trimEndChars } from "../core/text";
import { TURN_SLICE_MS } from "./db/turn-slices";

const positiveInt = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a whole number of at least 1` })
    .int(`${name} must be a whole number of at least 1`)
    .min(1, `${name} must be a whole number of at least 1`);

export const TRUST_PROXY_MESSAGE =
  "TRUST_PROXY must be the number of reverse proxies in front of the server (1 for one), or a comma-separated list of their addresses or CIDR ranges";

/**
 * How far X-Forwarded-For is believed (issue 24): a number of proxy hops, or the proxies' addresses.
 * `true` (or yes) reads as one hop, never as "every hop": trusting every hop lets a client choose its
 * own address for the sign-in limits by writing the left part of the header.
 */
export function parseTrustProxy(raw: string): false | number | string[] | null {
  const value = raw.trim().toLowerCase();
  if (value === "" || value === "false" || value === "no" || value === "0") return false;
  if (value === "true" || value === "yes") return 1;
  if (/^\d+$/.test(value)) return Number(value) <= 20 ? Number(value) : null;
  const entries = value
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const valid = entries.every((entry) => {
    const [address = "", prefix, extra] = entry.split("/");
    const family = isIP(address);
    if (family === 0 || extra !== undefined) return false;
    if (prefix === undefined) return true;
    if (!/^\d{1,3}$/.test(prefix)) return false;
    return Number(prefix) <= (family === 4 ? 32 : 128);
  });
  return valid && entries.length > 0 ? entries : null;
}

export const BACKUP_EVERY_MESSAGE =
  "BACKUP_EVERY must be a whole number of minutes, hours or days of at least one minute (30m, 24h, 7d)";

/** `30m`, `24h`, `7d` (or seconds, `90s`) in milliseconds; null unless at least a minute. */
export function parseInterval(raw: string): number | null {
  const match = /^(\d+)\s*([smhd])$/.exec(raw.trim().toLowerCase());
  if (!match) return null;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as "s"];
  const ms = Number(match[1]) * unit;
  return ms >= 60_000 && ms <= 366 * 86_400_000 ? ms : null;
}

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
        .map((o) => trimEndChars(o.trim(), "/"))
        .filter(Boolean),
    ),
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((raw, ctx) => {
      const parsed = parseTrustProxy(raw);
      if (parsed === null) {
        ctx.addIssue({ code: "custom", message: TRUST_PROXY_MESSAGE });
        return z.NEVER;
      }
      return parsed;
    }),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      error: "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
  LOGIN_MAX_FAILURES_PER_USER: positiveInt("LOGIN_MAX_FAILURES_PER_USER").default(10),
  LOGIN_MAX_FAILURES_PER_IP: positiveInt("LOGIN_MAX_FAILURES_PER_IP").default(100),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: positiveInt("LOGIN_MAX_FAILURES_PER_ACCOUNT").default(100),
  LOGIN_WINDOW_MINUTES: positiveInt("LOGIN_WINDOW_MINUTES").default(10),
  REGISTRATIONS_PER_HOUR_PER_IP: z.coerce
    .number({ error: "REGISTRATIONS_PER_HOUR_PER_IP must be a whole number (0: no limit)" })
    .int("REGISTRATIONS_PER_HOUR_PER_IP must be a whole number (0: no limit)")
    .min(0, "REGISTRATIONS_PER_HOUR_PER_IP must be a whole number (0: no limit)")
    .default(10),
  SESSION_CACHE_SECONDS: z.coerce
    .number({ error: "SESSION_CACHE_SECONDS must be a whole number from 0 to 300" })
    .int("SESSION_CACHE_SECONDS must be a whole number from 0 to 300")
    .min(0, "SESSION_CACHE_SECONDS must be a whole number from 0 to 300")
    .max(300, "SESSION_CACHE_SECONDS must be a whole number from 0 to 300")
    .default(30),
  // Decision 260: how late other users' answers may reach a ranking (the viewer's own never are late).
  RANKING_COHORT_SECONDS: z.coerce
    .number({ error: "RANKING_COHORT_SECONDS must be a whole number from 0 to 60" })
    .int("RANKING_COHORT_SECONDS must be a whole number from 0 to 60")
    .min(0, "RANKING_COHORT_SECONDS must be a whole number from 0 to 60")
    .max(60, "RANKING_COHORT_SECONDS must be a whole number from 0 to 60")
    .default(5),
  // Decision 270: 0 reads every due page from the database (a check of the cache, or a bench's baseline).
  DUE_PAGE_CACHE: z
    .enum(["0", "1", "false", "true"], { error: "DUE_PAGE_CACHE must be 0 or 1" })
    .default("1")
    .transform((v) => v === "1" || v === "true"),
  // Decision 320: unset, /metrics answers this machine only.
  METRICS_TOKEN: z
    .string()
    .regex(/^\S{16,}$/, "METRICS_TOKEN must be at least 16 characters, without spaces")
    .optional(),
  // Issue 33: password reset links by email (decision 325); PUBLIC_URL is also where the OpenID
  // redirect URI points (decision 335).
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/\s]/, "SMTP_URL must start with smtp:// or smtps:// and name a host")
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  PUBLIC_URL: z
    .url("PUBLIC_URL must be the address users open, such as https://prite.example.org")
    .regex(/^https?:\/\//, "PUBLIC_URL must start with http:// or https://")
    .transform((u) => trimEndChars(u, "/"))
    .optional(),
  MIGRATIONS_DIR: z.string().optional(),
  WEB_DIST_DIR: z.string().optional(),
  WORKERS: z.coerce
    .number({ error: "WORKERS must be a whole number from 1 to 64" })
    .int("WORKERS must be a whole number from 1 to 64")
    .min(1, "WORKERS must be a whole number from 1 to 64")
    .max(64, "WORKERS must be a whole number from 1 to 64")
    .default(1),
  OIDC_ISSUER: z.url("OIDC_ISSUER must be the provider's issuer URL").optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().trim().min(1).max(40, "OIDC_NAME must be at most 40 characters").optional(),
  OIDC_ALLOWED_DOMAINS: z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(",")
        .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
        .filter(Boolean),
    ),
  PASSWORD_SIGN_IN: z
    .enum(["on", "off"], { error: "PASSWORD_SIGN_IN must be on or off" })
    .default("on"),
  // Scheduled backups (decision 330): on when BACKUP_DIR is set.
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_EVERY: z
    .string()
    .default("24h")
    .transform((raw, ctx) => {
      const ms = parseInterval(raw);
      if (ms === null) {
        ctx.addIssue({ code: "custom", message: BACKUP_EVERY_MESSAGE });
        return z.NEVER;
      }
      return ms;
    }),
  BACKUP_KEEP: positiveInt("BACKUP_KEEP").default(14),
  // Audit log entries older than this many days are deleted (decision 340).
  AUDIT_RETENTION_DAYS: positiveInt("AUDIT_RETENTION_DAYS").default(365),
  PGLITE_OPTIMIZE_WASM: z
    .enum(["0", "1", "false", "true"], { error: "PGLITE_OPTIMIZE_WASM must be 0 or 1" })
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  // Decision 436: each server process's PostgreSQL connections; unset, serverPoolSize's default.
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: "DATABASE_POOL_SIZE must be a whole number from 1 to 100" })
    .int("DATABASE_POOL_SIZE must be a whole number from 1 to 100")
    .min(1, "DATABASE_POOL_SIZE must be a whole number from 1 to 100")
    .max(100, "DATABASE_POOL_SIZE must be a whole number from 1 to 100")
    .optional(),
  // Decision 434: how long queued statements run on the embedded database before new requests are read.
  PGLITE_TURN_SLICE_MS: z.coerce
    .number({ error: "PGLITE_TURN_SLICE_MS must be a whole number from 0 to 1000 (0: off)" })
    .int("PGLITE_TURN_SLICE_MS must be a whole number from 0 to 1000 (0: off)")
    .min(0, "PGLITE_TURN_SLICE_MS must be a whole number from 0 to 1000 (0: off)")
    .max(1000, "PGLITE_TURN_SLICE_MS must be a whole number from 0 to 1000 (0: off)")
    .default(TURN_SLICE_MS),
});

/** Said when WORKERS asks for several processes on the embedded database (docs/decisions/211). */
export const WORKERS_NEED_POSTGRES =
  "WORKERS must stay 1 on the embedded database (PGlite): it belongs to one process. Set DATABASE_URL to a PostgreSQL server to run several server processes.";

/** Said when SMTP_URL comes without the sender or the address links point to. */
export const MAIL_NEEDS =
  "SMTP_URL needs MAIL_FROM (the sender, such as PRITE Study <prite@example.org>) and PUBLIC_URL (the address users open)";

export type Env = z.infer<typeof ZEnv>;

const OIDC_REQUIRED = [
  "OIDC_ISSUER",
  "OIDC_CLIENT_ID",
  "OIDC_CLIENT_SECRET",
  "OIDC_NAME",
  "PUBLIC_URL",
] as const;

/** Sign-in with an institution's account is all or nothing: half a configuration stops the boot. */
function oidcIssues(env: Env): { path: string[]; message: string }[] {
  const set = OIDC_REQUIRED.filter((key) => env[key] !== undefined);
  const anyOidc = set.some((key) => key !== "PUBLIC_URL");
  const issues: { path: string[]; message: string }[] = [];
  if (anyOidc) {
    for (const key of OIDC_REQUIRED.filter((k) => env[k] === undefined)) {
      issues.push({
        path: [key],
        message: `${key} is needed for sign-in with an institution's account (set ${OIDC_REQUIRED.join(", ")} together)`,
      });
    }
  } else {
    if (env.OIDC_ALLOWED_DOMAINS.length > 0) {
      issues.push({
        path: ["OIDC_ALLOWED_DOMAINS"],
        message: "OIDC_ALLOWED_DOMAINS needs OIDC_ISSUER and the other OIDC_ settings",
      });
    }
    if (env.PASSWORD_SIGN_IN === "off") {
      issues.push({
        path: ["PASSWORD_SIGN_IN"],
        message:
          "PASSWORD_SIGN_IN=off needs sign-in with an institution's account (OIDC_ISSUER and the other OIDC_ settings)",
      });
    }
  }
  return issues;
}

/** The relying party's settings, or null when sign-in with an institution's account is off. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
  allowedDomains: string[];
  /** PUBLIC_URL + /api/auth/oidc/callback: what the operator registers with the provider. */
  redirectUri: string;
}

export function oidcSettings(env: Env): OidcSettings | null {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET || !env.OIDC_NAME) {
    return null;
  }
  if (!env.PUBLIC_URL) return null;
  return {
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    name: env.OIDC_NAME,
    allowedDomains: env.OIDC_ALLOWED_DOMAINS,
    redirectUri: `${env.PUBLIC_URL}/api/auth/oidc/callback`,
  };
}

/** Reads the environment once at boot; a bad value stops the process with every problem listed. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = ZEnv.superRefine((env, ctx) => {
    if (env.WORKERS > 1 && !env.DATABASE_URL) {
      ctx.addIssue({ code: "custom", path: ["WORKERS"], message: WORKERS_NEED_POSTGRES });
    }
    if (env.SMTP_URL && (!env.MAIL_FROM || !env.PUBLIC_URL)) {
      ctx.addIssue({ code: "custom", path: ["SMTP_URL"], message: MAIL_NEEDS });
    }
    for (const issue of oidcIssues(env)) ctx.addIssue({ code: "custom", ...issue });
  }).safeParse(cleaned);
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
