import { TRPCClientError } from "@trpc/client";
import { DataDirLockedError } from "../src/server/db/client";

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

export function describeError(err: unknown): string {
  if (err instanceof DataDirLockedError) {
    return `${err.message}\nA running server holds the embedded database: use --server http://localhost:3000 (after \`prite login\`).`;
  }
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
