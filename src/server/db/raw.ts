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
