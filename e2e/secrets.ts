import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { OUTPUT_DIR, SERVER_LOG_DIR } from "./server";

/**
 * Every password the specs type and every session token or API token the servers hand out is noted
 * here while the run goes on; at the end server-logs.teardown.ts looks for each of them in every
 * server's log (issue 9 item 5, docs/decisions/066). Worker processes append to files of their own.
 */

export type SecretKind = "password" | "session" | "token";

export interface Secret {
  kind: SecretKind;
  value: string;
}

const SECRETS_DIR = path.join(OUTPUT_DIR, "e2e-secrets");
export const SESSION_COOKIE = "prite_session";

const seen = new Set<string>();

/** Shorter values (the "short" of a too-short-password check) would match ordinary log text by chance. */
const MIN_LENGTH = 8;

export function rememberSecret(kind: SecretKind, value: string | null | undefined): void {
  if (!value || value.length < MIN_LENGTH) return;
  const key = `${kind}\n${value}`;
  if (seen.has(key)) return;
  seen.add(key);
  fs.mkdirSync(SECRETS_DIR, { recursive: true, mode: 0o700 });
  fs.appendFileSync(
    path.join(SECRETS_DIR, `${process.pid}.jsonl`),
    `${JSON.stringify({ kind, value })}\n`,
    { mode: 0o600 },
  );
}

/** Notes the session tokens in a response's Set-Cookie header(s) (joined by newlines or not). */
export function rememberSetCookie(header: string | null | undefined): void {
  if (!header) return;
  // eslint-disable-next-line regexp/no-super-linear-move -- Set-Cookie headers of our own test server
  const pattern = new RegExp(`(?:^|[\\n,]\\s*)${SESSION_COOKIE}=([^;\\s]*)`, "g");
  for (const match of header.matchAll(pattern)) rememberSecret("session", match[1]);
}

export function readSecrets(): Secret[] {
  if (!fs.existsSync(SECRETS_DIR)) return [];
  const all = new Map<string, Secret>();
  for (const name of fs.readdirSync(SECRETS_DIR)) {
    for (const line of fs.readFileSync(path.join(SECRETS_DIR, name), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const secret = JSON.parse(line) as Secret;
      all.set(`${secret.kind}\n${secret.value}`, secret);
    }
  }
  return [...all.values()];
}

export function readServerLogs(): { file: string; text: string }[] {
  if (!fs.existsSync(SERVER_LOG_DIR)) return [];
  return fs
    .readdirSync(SERVER_LOG_DIR)
    .filter((name) => name.endsWith(".log"))
    .sort()
    .map((name) => {
      const file = path.join(SERVER_LOG_DIR, name);
      return { file, text: fs.readFileSync(file, "utf8") };
    });
}

/** The forms a secret could take in a log: itself, and for a session token the stored id (its SHA-256). */
function needles(secret: Secret): { form: string; value: string }[] {
  const forms: { form: string; value: string }[] = [{ form: secret.kind, value: secret.value }];
  if (secret.kind !== "password") {
    forms.push({
      form: `${secret.kind} id (SHA-256)`,
      value: createHash("sha256").update(secret.value).digest("hex"),
    });
  }
  return forms;
}

/** Credential-carrying headers must appear in a log only as pino's censor text, if at all. */
const HEADER_PATTERN =
  /"(cookie|set-cookie|authorization|x-auth-token)"\s*:\s*("[^"]*"|\[[^\]]*\])/gi;

/** Where a secret (or an uncensored credential header) shows up; never the secret itself. */
export function findLeaks(logs: { file: string; text: string }[], secrets: Secret[]): string[] {
  const leaks: string[] = [];
  for (const { file, text } of logs) {
    const name = path.relative(OUTPUT_DIR, file);
    for (const secret of secrets) {
      for (const { form, value } of needles(secret)) {
        if (text.includes(value)) leaks.push(`${name}: a ${form} (${value.slice(0, 3)}…)`);
      }
    }
    for (const match of text.matchAll(HEADER_PATTERN)) {
      if (match[2] !== '"[redacted]"') leaks.push(`${name}: header ${match[1]} logged uncensored`);
    }
  }
  return leaks;
}
