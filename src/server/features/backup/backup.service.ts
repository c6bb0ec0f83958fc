import fs from "node:fs";
import path from "node:path";
import type { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import type { Db, DbHandle } from "../../db/client";
import { migrationsFolder } from "../../db/migrate";
import { queryRows } from "../../db/raw";
import {
  appliedMigrations,
  ident,
  publicSequences,
  publicTables,
  tableColumns,
  useCanonicalText,
} from "./catalog";
import { recordAudit, type AuditOrigin, type AuditUser } from "../audit/audit.service";
import { BACKUP_FORMAT, BACKUP_VERSION, BackupWriter, type BackupHeader } from "./format";

/** Rows fetched per round trip: a batch of rows is all the memory a backup holds. */
const FETCH_ROWS = 500;

export interface BackupResult {
  tables: number;
  rows: number;
  schema: string | null;
}

export interface WriteBackupOptions {
  kind: DbHandle["kind"];
  now: Date;
  /** Opened once the snapshot is taken (and `proceed` agreed). */
  open: () => Writable;
  /**
   * Asked first, inside the snapshot's transaction: false writes nothing and answers null (the
   * scheduled backup takes a lock here and looks whether another process just took one).
   */
  proceed?: (tx: Db) => Promise<boolean>;
  /**
   * Who asked, for the audit log; written once the file is whole (the snapshot's transaction is read
   * only). Omitted: not recorded (tests that compare databases).
   */
  audit?: { actor: AuditUser | null; origin: AuditOrigin; detail?: Record<string, unknown> };
}

/** The tag of the migration with this folder time, from this release's journal. */
function migrationTag(createdAt: number): string | null {
  try {
    const journal = JSON.parse(
      fs.readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8"),
    ) as { entries: { tag: string; when: number }[] };
    return journal.entries.find((e) => e.when === createdAt)?.tag ?? null;
  } catch {
    return null;
  }
}

/**
 * Writes every table of the public schema, read in one repeatable-read, read-only transaction (one
 * snapshot: the kept figures agree with the rows they count), as the backup format of format.ts.
 */
export async function writeBackup(db: Db, opts: WriteBackupOptions): Promise<BackupResult | null> {
  return db.transaction(
    async (tx) => {
      if (opts.proceed && !(await opts.proceed(tx))) return null;
      await useCanonicalText(tx);
      const migrations = await appliedMigrations(tx);
      if (!migrations.last)
        throw new Error("The database has never been migrated: nothing to back up.");
      const tables = await publicTables(tx);
      const sequences = [];
      for (const name of await publicSequences(tx)) {
        const [s] = await queryRows<{ last_value: string; is_called: boolean }>(
          tx,
          sql.raw(`select last_value::text, is_called from public.${ident(name)}`),
        );
        sequences.push({ name, lastValue: s!.last_value, isCalled: s!.is_called });
      }
      const header: BackupHeader = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        createdAt: opts.now.toISOString(),
        database: opts.kind,
        schema: {
          migration: migrationTag(migrations.last.createdAt),
          migrations: migrations.count,
          hash: migrations.last.hash,
          createdAt: migrations.last.createdAt,
        },
        tables,
        sequences,
      };
      const writer = new BackupWriter(opts.open());
      await writer.line(JSON.stringify(header));
      const counts: Record<string, number> = {};
      let total = 0;
      for (const table of tables) {
        const columns = await tableColumns(tx, table);
        await writer.line(JSON.stringify({ table, columns: columns.map((c) => c.name) }));
        const values = columns.map((c) => `${ident(c.name)}::text`).join(", ");
        await tx.execute(
          sql.raw(
            `declare prite_backup no scroll cursor for select to_json(array[${values}]::text[])::text as line from public.${ident(table)}`,
          ),
        );
        let n = 0;
        for (;;) {
          const batch = await queryRows<{ line: string }>(
            tx,
            sql.raw(`fetch forward ${FETCH_ROWS} from prite_backup`),
          );
          for (const row of batch) await writer.line(row.line);
          n += batch.length;
          if (batch.length < FETCH_ROWS) break;
        }
        await tx.execute(sql.raw("close prite_backup"));
        counts[table] = n;
        total += n;
      }
      await writer.finish(counts);
      return { tables: tables.length, rows: total, schema: header.schema.migration };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/**
 * A backup written to `file` through a temporary name, so a file with the final name is always whole;
 * nothing is left behind on failure.
 */
export async function writeBackupFile(
  db: Db,
  file: string,
  opts: Omit<WriteBackupOptions, "open">,
): Promise<BackupResult | null> {
  const partial = `${file}.partial-${process.pid}`;
  let stream: fs.WriteStream | undefined;
  try {
    const result = await writeBackup(db, {
      ...opts,
      open: () => (stream = fs.createWriteStream(partial, { mode: 0o600 })),
    });
    if (result) fs.renameSync(partial, file);
    if (result && opts.audit) {
      await recordAudit(db, {
        kind: "backup.taken",
        actor: opts.audit.actor,
        detail: { tables: result.tables, rows: result.rows, ...opts.audit.detail },
        origin: opts.audit.origin,
        at: opts.now,
      });
    }
    return result;
  } catch (err) {
    stream?.destroy();
    fs.rmSync(partial, { force: true });
    throw err;
  }
}
