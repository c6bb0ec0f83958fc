import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/raw";

/** A name as an SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Values are read and written as PostgreSQL's own text for them, under settings that make that text
 * the same on every server: UTC times in ISO form, the shortest exact floats, hex bytea.
 */
export async function useCanonicalText(tx: Db): Promise<void> {
  for (const setting of [
    "set local timezone to 'UTC'",
    "set local datestyle to 'ISO, YMD'",
    "set local intervalstyle to 'postgres'",
    "set local extra_float_digits to 1",
    "set local bytea_output to 'hex'",
  ]) {
    await tx.execute(sql.raw(setting));
  }
}

/**
 * The tables of the public schema, each after the tables it references, so rows load in file order
 * without breaking a foreign key (a table referencing itself is loaded in one statement per batch).
 */
export async function publicTables(db: Db): Promise<string[]> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select relname as name from pg_class
        where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') and not relispartition
        order by relname`,
  );
  const edges = await queryRows<{ child: string; parent: string }>(
    db,
    sql`select c.relname as child, p.relname as parent
        from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
        where k.contype = 'f' and k.connamespace = 'public'::regnamespace and c.oid <> p.oid`,
  );
  const parents = new Map<string, string[]>();
  for (const e of edges) parents.set(e.child, [...(parents.get(e.child) ?? []), e.parent]);
  const ordered: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (name: string) => {
    if (state.get(name) === "done") return;
    if (state.get(name) === "visiting") {
      throw new Error(`Tables reference each other in a circle (at ${name}); cannot order them.`);
    }
    state.set(name, "visiting");
    for (const p of parents.get(name) ?? []) visit(p);
    state.set(name, "done");
    ordered.push(name);
  };
  for (const { name } of tables) visit(name);
  return ordered;
}

export interface Column {
  name: string;
  /** The column's type as SQL writes it (format_type). */
  type: string;
}

/** A table's stored columns in order; generated columns are left out (they are computed again). */
export async function tableColumns(db: Db, table: string): Promise<Column[]> {
  return queryRows<Column>(
    db,
    sql`select a.attname as name, format_type(a.atttypid, a.atttypmod) as type
        from pg_attribute a
        where a.attrelid = ${`public.${ident(table)}`}::regclass and a.attnum > 0
          and not a.attisdropped and a.attgenerated = ''
        order by a.attnum`,
  );
}

export async function publicSequences(db: Db): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select relname as name from pg_class
        where relnamespace = 'public'::regnamespace and relkind = 'S' order by relname`,
  );
  return rows.map((r) => r.name);
}

export interface AppliedMigrations {
  count: number;
  last: { hash: string; createdAt: number } | null;
}

/** drizzle's journal of applied migrations; none on a database never migrated. */
export async function appliedMigrations(db: Db): Promise<AppliedMigrations> {
  const [found] = await queryRows<{ exists: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as "exists"`,
  );
  if (!found?.exists) return { count: 0, last: null };
  const [row] = await queryRows<{ n: number; hash: string | null; created_at: string | null }>(
    db,
    sql`select (select count(*)::int from drizzle.__drizzle_migrations) as n, hash, created_at::text
        from (select 1) one
        left join lateral (select hash, created_at from drizzle.__drizzle_migrations
                           order by created_at desc limit 1) m on true`,
  );
  const count = Number(row?.n ?? 0);
  return {
    count,
    last: count > 0 && row?.hash ? { hash: row.hash, createdAt: Number(row.created_at) } : null,
  };
}
