import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "./client";
import { queryRows } from "./raw";

/** Named statements on the embedded database (pglite-named.ts, decision 401). */
let handle: DbHandle;
beforeAll(async () => {
  handle = await createDb({ memory: true });
  await handle.db.execute(sql`create table t (id int primary key, v text)`);
});
afterAll(async () => {
  await handle.close();
});

type Client = { query: (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }> };
const client = () => (handle.db as unknown as { $client: Client }).$client;

describe("PGlite statements kept by name", () => {
  it("runs one statement with many values, keeps working after an error, and survives eviction", async () => {
    for (let i = 0; i < 50; i++) {
      await client().query("insert into t (id, v) values ($1, $2)", [i, `v${i}`]);
    }
    const rows = await client().query("select v from t where id = $1", [7]);
    expect(rows.rows).toEqual([{ v: "v7" }]);
    await expect(
      client().query("insert into t (id, v) values ($1, $2)", [7, "again"]),
    ).rejects.toMatchObject({ code: "23505" });
    await client().query("insert into t (id, v) values ($1, $2)", [50, "v50"]);
    // More texts than are kept: the oldest are closed and made again when needed.
    for (let i = 0; i < 300; i++) {
      const r = await client().query(`select $1::int + ${i} as n`, [1]);
      expect(r.rows).toEqual([{ n: i + 1 }]);
    }
    const [count] = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from t`,
    );
    expect(count!.n).toBe(51);
  });

  it("answers a kept statement's text again after its table changed shape", async () => {
    await client().query("create table shape (id int)");
    await client().query("insert into shape values ($1)", [1]);
    expect((await client().query("select * from shape", [])).rows).toEqual([{ id: 1 }]);
    await client().query("alter table shape add column v text default 'x'");
    expect((await client().query("select * from shape", [])).rows).toEqual([{ id: 1, v: "x" }]);
    expect((await client().query("select * from shape", [])).rows).toEqual([{ id: 1, v: "x" }]);
  });

  it("never runs inside another caller's open transaction", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = handle.db.transaction(async (t) => {
      await t.execute(sql`insert into t (id, v) values (1000, 'in tx')`);
      await held;
      throw new Error("roll back");
    });
    // Issued while the transaction is open: it waits, and so never sees (or joins) its row.
    const outside = client().query("select count(*)::int as n from t where id = $1", [1000]);
    release();
    await expect(tx).rejects.toThrow("roll back");
    expect((await outside).rows).toEqual([{ n: 0 }]);
  });
});
