/**
 * Prepared queries for the hottest reads (issue 8): built once per database handle with drizzle's
 * `.prepare(name)` and placeholders, so each call neither rebuilds the SQL text nor — on PostgreSQL,
 * where a named statement keeps its plan per connection — plans it again. Measured on the due page,
 * drizzle's query building and PostgreSQL's planning were each about 1 ms of every request.
 *
 * Only for calls on the root handle: inside `db.transaction()` the queries run as usual.
 */
import type { Db } from "./client";

const byDb = new WeakMap<Db, Map<string, unknown>>();

/**
 * The prepared query named `name` for `db`, built by `build` on first use. The name is also the
 * PostgreSQL statement name, so it must be unique per query shape.
 */
export function prepared<T>(db: Db, name: string, build: (db: Db, name: string) => T): T {
  let cache = byDb.get(db);
  if (!cache) byDb.set(db, (cache = new Map()));
  let query = cache.get(name) as T | undefined;
  if (query === undefined) {
    query = build(db, name);
    cache.set(name, query);
  }
  return query;
}
