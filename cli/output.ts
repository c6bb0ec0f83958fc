import { TRPCClientError } from "@trpc/client";
import { DataDirLockedError } from "../src/server/db/client";
import { readConfig } from "./config";

/** A failure in the product's words: printed without a stack trace, exit code 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Where a server on this machine listens by default: localhost on PORT (3000 unless set). */
export function localServerUrl(env: NodeJS.ProcessEnv = process.env): string {
  const port = Number(env.PORT);
  return `http://localhost:${Number.isInteger(port) && port > 0 && port < 65536 ? port : 3000}`;
}

/**
 * The embedded folder is in use: name the folder and the process, and say how to reach that server
 * instead — the stored login's server (only --local can have brought us here then), else localhost:PORT.
 */
export function describeLockedDataDir(
  err: DataDirLockedError,
  stored: string | undefined = readConfig().server,
): string {
  const inUse = `The embedded database in ${err.dir} is in use by another process (pid ${err.pid}), usually a running PRITE Study server.`;
  const instead = stored
    ? `Drop --local to use your login to ${stored}, or stop that process first.`
    : `Use that server instead: \`prite login --server ${localServerUrl()}\` once, and later commands go to it; or stop that process first.`;
  return `${inUse}\n${instead}`;
}

export function describeError(err: unknown): string {
  if (err instanceof DataDirLockedError) return describeLockedDataDir(err);
  if (err instanceof TRPCClientError) {
    const cause = (err as TRPCClientError<never>).cause as { code?: string } | undefined;
    if (cause?.code === "ECONNREFUSED" || /fetch failed/i.test(err.message)) {
      return "Could not reach the server. Is it running, and is the --server URL right?";
    }
    return err.message;
  }
  if (err instanceof Error) return err.message;
  return String(err);
}

/** Simple text table for terminals. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  const cells = rows.map((r) => columns.map((c) => String(r[c] ?? "")));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(columns), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}
