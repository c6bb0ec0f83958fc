import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { Command } from "commander";
import { trimEndChars } from "../../src/core/text";
import {
  writeBackupFile,
  type BackupResult,
} from "../../src/server/features/backup/backup.service";
import { SERVER_ORIGIN } from "../../src/server/features/audit/audit.service";
import { verifyBackup } from "../../src/server/features/backup/format";
import {
  restoreBackup,
  type RestoreResult,
} from "../../src/server/features/backup/restore.service";
import { action, failureMessage } from "../command";
import { readConfig } from "../config";
import { CliError } from "../output";
import { openDatabase, openRemote, requireLocal, sameServer, type GlobalOptions } from "../runtime";

/** `prite db backup` in local mode: the database of DATABASE_URL or DATA_DIR, as it is. */
export async function backupLocal(opts: GlobalOptions, file: string): Promise<BackupResult> {
  const handle = await openDatabase(opts);
  try {
    const result = await writeBackupFile(handle.db, path.resolve(file), {
      kind: handle.kind,
      now: new Date(),
      audit: { actor: null, origin: SERVER_ORIGIN },
    });
    return result!;
  } finally {
    await handle.close();
  }
}

/**
 * `prite --server URL db backup`: the running server's `GET /api/admin/backup`, downloaded under a
 * temporary name and checked whole before it takes the file's name.
 */
export async function backupRemote(
  server: string,
  token: string | undefined,
  file: string,
): Promise<BackupResult> {
  const base = trimEndChars(server, "/");
  let res: Response;
  try {
    res = await fetch(`${base}/api/admin/backup`, {
      headers: { "x-prite-client": "cli", ...(token ? { "x-auth-token": token } : {}) },
    });
  } catch {
    throw new CliError("Could not reach the server. Is it running, and is the --server URL right?");
  }
  if (!res.ok || !res.body) {
    const { message } = (await res.json().catch(() => ({}))) as { message?: string };
    if (res.status === 401) {
      throw new CliError(
        failureMessage({ data: { code: "UNAUTHORIZED" } }, openRemote(base, token)),
      );
    }
    throw new CliError(message ?? `The server answered ${res.status}.`);
  }
  const target = path.resolve(file);
  const partial = `${target}.partial-${process.pid}`;
  try {
    await pipeline(
      // fetch's body is the same stream as node:stream/web's; only the DOM and Node typings differ.
      Readable.fromWeb(res.body as NodeReadableStream<Uint8Array>),
      fs.createWriteStream(partial, { mode: 0o600 }),
    );
    const { header, rows } = await verifyBackup(partial);
    fs.renameSync(partial, target);
    return { tables: header.tables.length, rows, schema: header.schema.migration };
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

/** `prite db restore FILE` (local mode only). */
export async function restoreLocal(opts: GlobalOptions, file: string): Promise<RestoreResult> {
  if (!fs.existsSync(file)) throw new CliError(`No such file: ${file}`);
  const handle = await openDatabase(opts);
  try {
    return await restoreBackup(handle.db, path.resolve(file), {
      origin: SERVER_ORIGIN,
      at: new Date(),
    });
  } finally {
    await handle.close();
  }
}

export function registerBackupCommands(db: Command): void {
  db.command("backup")
    .description(
      "Write a backup of every table (one consistent snapshot, compressed) to a file; with --server, of that running server's database (admins)",
    )
    .requiredOption("-o, --output <file>", "the backup file to write (e.g. prite.jsonl.gz)")
    .addHelpText(
      "after",
      `
Examples:
  $ prite db backup -o prite-2026-11-27.jsonl.gz                          # DATA_DIR or DATABASE_URL
  $ prite --server https://prite.example.org db backup -o prite.jsonl.gz   # a running server, as an admin`,
    )
    .action(
      action(
        async (ctx, cmdOpts: { output: string }) => {
          const config = readConfig();
          const server = ctx.opts.local ? undefined : (ctx.opts.server ?? config.server);
          const result = server
            ? await backupRemote(
                server,
                sameServer(server, config.server) ? config.token : undefined,
                cmdOpts.output,
              )
            : await backupLocal(ctx.opts, cmdOpts.output);
          ctx.out(
            `Backup written to ${cmdOpts.output} (${result.tables} tables, ${result.rows} rows, schema ${result.schema ?? "unknown"}).`,
            { success: true, file: path.resolve(cmdOpts.output), ...result },
          );
        },
        { needsSession: false },
      ),
    );
  db.command("restore")
    .description(
      "Restore a backup file into an empty database (DATABASE_URL or DATA_DIR), migrating it to this release",
    )
    .argument("<file>", "a file written by `prite db backup`")
    .addHelpText(
      "after",
      `
The database must hold no accounts, questions or images; one not migrated yet is migrated by the
restore. A damaged file, or any error, leaves the database as it was.

Examples:
  $ DATA_DIR=./new-data prite db restore prite.jsonl.gz
  $ DATABASE_URL=postgres://prite@db/prite prite db restore prite.jsonl.gz   # moving to PostgreSQL`,
    )
    .action(
      action(
        async (ctx, file: string) => {
          const result = await restoreLocal(ctx.opts, file);
          const later =
            result.migratedAfter > 0
              ? `; then applied ${result.migratedAfter} newer migrations`
              : "";
          ctx.out(
            `Restored ${result.rows} rows into ${result.tables} tables from ${file} (schema ${result.schema ?? "unknown"}${later}).`,
            { success: true, ...result },
          );
        },
        { needsSession: false, validate: (_args, opts) => requireLocal(opts, "db restore") },
      ),
    );
}
