import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../test/db";
import { queryRows } from "./raw";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db.close();
});

/**
 * What every connection of the server's pool sets for itself on PostgreSQL (client.ts): kept plans
 * for named statements (decision 401) and no JIT compilation (decision 437), whatever the server's
 * own configuration says.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("the pool's session settings on PostgreSQL", () => {
  it("never compiles a statement with JIT, even one estimated far above jit_above_cost", async () => {
    const plans = await db.db.transaction(async (tx) => {
      // Every statement would pass the threshold; JIT off must still keep it out.
      await tx.execute(sql`set local jit_above_cost = 0`);
      return queryRows<{ "QUERY PLAN": unknown }>(
        tx,
        sql`explain (analyze, format json) select sum(g * 2) from generate_series(1, 50000) g`,
      );
    });
    const text = JSON.stringify(plans);
    expect(text).toContain("Execution Time");
    expect(text).not.toContain('"JIT"');
    const [settings] = await queryRows<{ jit: string; plan_cache_mode: string }>(
      db.db,
      sql`select current_setting('jit') as jit, current_setting('plan_cache_mode') as plan_cache_mode`,
    );
    expect(settings).toEqual({ jit: "off", plan_cache_mode: "force_generic_plan" });
  });
});
