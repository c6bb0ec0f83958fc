import type { SQL } from "drizzle-orm";
import type { Db } from "./client";

/**
 * Rows of a raw SQL query on either driver: postgres.js returns an array, PGlite an object with `rows`.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

type NamingClient = {
  unsafe?: (text: string, params: unknown[], opts: { prepare: boolean }) => Promise<unknown[]>;
};
type Dialect = { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };

/**
 * Rows of a raw SQL query that runs often: on PostgreSQL's root handle it is sent as a named
 * statement, which keeps its plan per connection (drizzle's `execute` sends an unnamed one, planned
 * on every call). PGlite's root handle names its statements itself (pglite-named.ts); a
 * transaction's handle runs the query as `queryRows` does.
 */
export async function queryRowsNamed<T>(db: Db, query: SQL): Promise<T[]> {
  const client = (db as unknown as { $client?: NamingClient }).$client;
  if (!client?.unsafe) return queryRows<T>(db, query);
  const { sql, params } = (db as unknown as { dialect: Dialect }).dialect.sqlToQuery(query);
  return (await client.unsafe(sql, params, { prepare: true })) as T[];
}
