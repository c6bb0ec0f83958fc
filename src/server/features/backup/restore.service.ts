import path from "node:path";
import { sql } from "drizzle-orm";
import { readMigrationFiles, type MigrationMeta } from "drizzle-orm/migrator";
import type { Db } from "../../db/client";
import { migrationsFolder } from "../../db/migrate";
import { queryRows } from "../../db/raw";
import {
  appliedMigrations,
  ident,
  publicTables,
  tableColumns,
  useCanonicalText,
  type Column,
} from "./catalog";
import { recordAudit, type AuditMeta } from "../audit/audit.service";
import { readBackup, verifyBackup, type BackupHeader, type TableSection } from "./format";

/** Rows (or bytes of their text) sent per INSERT. */
const INSERT_ROWS = 1000;
const INSERT_BYTES = 4 * 1024 * 1024;

/** Tables whose rows make a database someone's: accounts, and what can outlive its account. */
const USER_DATA_TABLES = ["users", "questions", "media"];

export const NOT_EMPTY =
  "The database is not empty (it has accounts, questions or images): restore into a new, empty database.";

export interface RestoreResult {
  tables: number;
  rows: number;
  /** The backup's newest migration. */
  schema: string | null;
  /** Migrations applied after the rows were loaded (a backup from an earlier release). */
  migratedAfter: number;
}

/**
 * Applies migrations inside the caller's transaction, as drizzle's migrator does (the same journal
 * table and rows), so that a restore's migrations roll back with it.
 */
export async function migrateWithin(tx: Db, migrations: MigrationMeta[]): Promise<void> {
  await tx.execute(sql`create schema if not exists drizzle`);
  await tx.execute(
    sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
  );
  for (const m of migrations) {
    for (const statement of m.sql) await tx.execute(sql.raw(statement));
    await tx.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${m.hash}, ${m.folderMillis})`,
    );
  }
}

/** Where the backup's schema is in this release's migrations; refuses one this release cannot read. */
function backupPosition(header: BackupHeader, migrations: MigrationMeta[]): number {
  const at = migrations.findIndex((m) => m.folderMillis === header.schema.createdAt);
  if (at < 0 || at + 1 !== header.schema.migrations) {
    throw new Error(
      `This backup's schema (${header.schema.migration ?? header.schema.hash}) is not one this release knows: restore it with the release that made it, or a later one.`,
    );
  }
  return at + 1;
}

/** Refuses a database that holds anyone's data, or that is not PRITE Study's. */
async function checkTarget(tx: Db, applied: number, backupAt: number): Promise<void> {
  const tables = await publicTables(tx);
  if (applied === 0 && tables.length > 0) {
    throw new Error(
      "The database has tables but no PRITE Study migrations: restore into a new, empty database.",
    );
  }
  if (applied > backupAt) {
    throw new Error(
      `The database is already migrated past this backup's schema (${applied} migrations, the backup has ${backupAt}): restore into a new, empty database (not migrated), which the restore migrates itself.`,
    );
  }
  for (const table of USER_DATA_TABLES.filter((t) => tables.includes(t))) {
    const [row] = await queryRows<{ any: boolean }>(
      tx,
      sql.raw(`select exists (select from public.${ident(table)}) as "any"`),
    );
    if (row?.any) throw new Error(NOT_EMPTY);
  }
}

/** One INSERT of rows given as PostgreSQL's text, each cast to its column's type. */
function insertStatement(
  table: string,
  columns: Column[],
): (rows: string[]) => ReturnType<typeof sql> {
  const names = columns.map((c) => ident(c.name)).join(", ");
  const values = columns.map((c, i) => `(r->>${i})::${c.type}`).join(", ");
  const head = `insert into public.${ident(table)} (${names}) overriding system value select ${values} from json_array_elements(`;
  return (rows) => sql`${sql.raw(head)}${`[${rows.join(",")}]`}::json) as e(r)`;
}

async function columnsFor(tx: Db, section: TableSection): Promise<Column[]> {
  const target = new Map((await tableColumns(tx, section.table)).map((c) => [c.name, c]));
  return section.columns.map((name) => {
    const column = target.get(name);
    if (!column) {
      throw new Error(
        `The backup's column ${section.table}.${name} is not in this database's schema.`,
      );
    }
    return column;
  });
}

/**
 * Restores a backup file into an empty database (decision 330): the file is checked whole first; then,
 * in one transaction, the database is migrated up to the backup's schema, emptied of what migrations
 * and a first start write (kept figures, sign-in attempts), loaded with triggers off (the kept figures
 * come from the file), its sequences set, and migrated the rest of the way. Any error rolls it all back.
 */
export async function restoreBackup(db: Db, file: string, meta: AuditMeta): Promise<RestoreResult> {
  const { header } = await verifyBackup(file);
  const migrations = readMigrationFiles({ migrationsFolder: migrationsFolder() });
  const backupAt = backupPosition(header, migrations);
  return db.transaction(async (tx) => {
    const applied = (await appliedMigrations(tx)).count;
    await checkTarget(tx, applied, backupAt);
    await migrateWithin(tx, migrations.slice(applied, backupAt));
    await useCanonicalText(tx);
    const tables = await publicTables(tx);
    const missing = header.tables.filter((t) => !tables.includes(t));
    if (missing.length > 0) {
      throw new Error(
        `The backup's tables ${missing.join(", ")} are not in this database's schema.`,
      );
    }
    for (const t of tables)
      await tx.execute(sql.raw(`alter table public.${ident(t)} disable trigger user`));
    for (const t of [...tables].reverse())
      await tx.execute(sql.raw(`delete from public.${ident(t)}`));

    let rows = 0;
    let insert: ((rows: string[]) => ReturnType<typeof sql>) | null = null;
    let batch: string[] = [];
    let bytes = 0;
    const flush = async () => {
      if (insert && batch.length > 0) await tx.execute(insert(batch));
      batch = [];
      bytes = 0;
    };
    for await (const line of readBackup(file)) {
      if (line.kind === "table") {
        await flush();
        insert = insertStatement(line.section.table, await columnsFor(tx, line.section));
      } else if (line.kind === "row") {
        batch.push(line.text);
        bytes += line.text.length;
        rows += 1;
        if (batch.length >= INSERT_ROWS || bytes >= INSERT_BYTES) await flush();
      }
    }
    await flush();

    for (const s of header.sequences) {
      await tx.execute(
        sql`select setval(${`public.${ident(s.name)}`}::regclass, ${s.lastValue}::bigint, ${s.isCalled})`,
      );
    }
    for (const t of tables)
      await tx.execute(sql.raw(`alter table public.${ident(t)} enable trigger user`));
    const later = migrations.slice(backupAt);
    await migrateWithin(tx, later);
    await recordAudit(tx, {
      kind: "backup.restored",
      actor: null,
      detail: { file: path.basename(file), rows, schema: header.schema.migration },
      ...meta,
    });
    return {
      tables: header.tables.length,
      rows,
      schema: header.schema.migration,
      migratedAfter: later.length,
    };
  });
}
