import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { projectRoot } from "../env";
import type { DbHandle } from "./client";

/** Resolved from the project root (or MIGRATIONS_DIR) so a bundled build finds it too. */
export function migrationsFolder(): string {
  return process.env.MIGRATIONS_DIR
    ? path.resolve(process.env.MIGRATIONS_DIR)
    : path.join(projectRoot(), "drizzle");
}

/** One migration as shipped: drizzle's journal entry and its SQL file. */
export interface ShippedMigration {
  /** The file name without `.sql`, e.g. `0026_due_page_versions`. */
  tag: string;
  /** The journal's `when`: what drizzle stores as `created_at` of an applied migration. */
  when: number;
  hash: string;
  statements: string[];
}

/**
 * The migrations in `folder`, in journal order, read as drizzle-orm's migrator reads them (same hash,
 * same statement split), so a database migrated by either is recognised by the other.
 */
export function shippedMigrations(folder = migrationsFolder()): ShippedMigration[] {
  const journal = JSON.parse(
    fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8"),
  ) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map(({ tag, when }) => {
    const text = fs.readFileSync(path.join(folder, `${tag}.sql`), "utf8");
    return {
      tag,
      when,
      hash: crypto.createHash("sha256").update(text).digest("hex"),
      statements: text.split("--> statement-breakpoint"),
    };
  });
}

/** Where drizzle keeps the applied migrations (its defaults, kept for databases it migrated). */
const MIGRATIONS_TABLE = sql.raw(`"drizzle"."__drizzle_migrations"`);

/** Any constant: two servers starting at once on one PostgreSQL database migrate one after the other. */
const MIGRATION_LOCK = 70111033;

export class MigrationError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    const reason = (cause as { cause?: Error }).cause?.message ?? (cause as Error).message;
    super(
      `Migration ${file} failed: ${reason}. No pending migration was applied; the database is as it was before.`,
      { cause },
    );
    this.name = "MigrationError";
  }
}

export interface MigrateOptions {
  /** Another migrations folder (tests). */
  folder?: string;
  /** Applies the migrations up to this journal index only (tests build databases of earlier releases). */
  upTo?: number;
}

/**
 * Brings the schema up to date: the pending migrations all in one transaction (on PGlite and
 * PostgreSQL alike), so a failing one leaves the database exactly as it was, and the error names its
 * file. Pending means newer than the newest applied one, as drizzle-orm's migrator decides.
 */
export async function runMigrations(handle: DbHandle, opts: MigrateOptions = {}): Promise<void> {
  const folder = opts.folder ?? migrationsFolder();
  const all = shippedMigrations(folder);
  const wanted = opts.upTo === undefined ? all : all.slice(0, opts.upTo + 1);
  const { db } = handle;
  await db.execute(sql`create schema if not exists "drizzle"`);
  await db.execute(
    sql`create table if not exists ${MIGRATIONS_TABLE} (id serial primary key, hash text not null, created_at bigint)`,
  );
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    const rows = rowsOf<{ created_at: string | null }>(
      await tx.execute(sql`select max(created_at)::text as created_at from ${MIGRATIONS_TABLE}`),
    );
    const last = Number(rows[0]?.created_at ?? -1);
    for (const migration of wanted) {
      if (migration.when <= last) continue;
      try {
        for (const statement of migration.statements) await tx.execute(sql.raw(statement));
      } catch (err) {
        throw new MigrationError(path.join(path.basename(folder), `${migration.tag}.sql`), err);
      }
      await tx.execute(
        sql`insert into ${MIGRATIONS_TABLE} (hash, created_at) values (${migration.hash}, ${migration.when})`,
      );
    }
  });
}

/** The rows of `db.execute`, which PGlite answers as `{rows}` and postgres.js as the array itself. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

export interface MigrationStatus {
  applied: number;
  shipped: number;
  /** Shipped migrations the database has not applied, by file name without `.sql`. */
  missing: string[];
}

/** Compares the migrations applied in the database with those shipped (the readiness check). */
export async function migrationStatus(
  handle: DbHandle,
  shipped: readonly ShippedMigration[],
): Promise<MigrationStatus> {
  const exists = rowsOf<{ t: string | null }>(
    await handle.db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`),
  );
  const applied = exists[0]?.t
    ? rowsOf<{ created_at: string }>(
        await handle.db.execute(
          sql`select created_at::text as created_at from ${MIGRATIONS_TABLE}`,
        ),
      ).map((r) => Number(r.created_at))
    : [];
  const done = new Set(applied);
  return {
    applied: applied.length,
    shipped: shipped.length,
    missing: shipped.filter((m) => !done.has(m.when)).map((m) => m.tag),
  };
}
