import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { createDb, type Db, type DbHandle } from "../../db/client";
import { queryRows } from "../../db/raw";
import { adminUrl } from "../../test/golden";
import { ident, publicSequences, publicTables, useCanonicalText } from "./catalog";

/**
 * A new PGlite's data folder, made once for every test file (PGlite's initdb takes 5-15 s here, a load
 * of its dump under 2 s).
 */
export async function emptyPgliteImage(): Promise<Blob> {
  const { version } = JSON.parse(
    fs.readFileSync(
      path.join(process.cwd(), "node_modules", "@electric-sql", "pglite", "package.json"),
      "utf8",
    ),
  ) as { version: string };
  const file = path.join(process.cwd(), ".tmp", `pglite-empty-${version}.tar`);
  if (!fs.existsSync(file)) {
    const handle = await createDb({ memory: true });
    const client = (handle.db as unknown as { $client: { dumpDataDir(c: string): Promise<Blob> } })
      .$client;
    const blob = await client.dumpDataDir("none");
    await handle.close();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
    fs.renameSync(tmp, file);
  }
  return new Blob([fs.readFileSync(file)]);
}

/** A new database that was never migrated: in-memory PGlite, or a new database on the test server. */
export async function unmigratedDb(kind: "pglite" | "postgres"): Promise<DbHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (kind === "pglite" || !url) {
    return createDb({ memory: true, loadDataDir: await emptyPgliteImage() });
  }
  const name = `prite_r_${crypto.randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl(url), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const handle = await createDb({ databaseUrl: adminUrl(url, name), maxConnections: 3 });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const cleanup = postgres(adminUrl(url), { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/**
 * Every row of every table (generated columns too) as PostgreSQL's text, sorted in JavaScript (the two
 * databases may collate differently), with the sequences and the migrations journal: two databases
 * with equal dumps hold the same data.
 */
export async function dumpDatabase(db: Db): Promise<Record<string, string[]>> {
  return db.transaction(async (tx) => {
    await useCanonicalText(tx);
    const out: Record<string, string[]> = {};
    for (const table of await publicTables(tx)) {
      const columns = await queryRows<{ name: string }>(
        tx,
        sql`select attname as name from pg_attribute
            where attrelid = ${`public.${ident(table)}`}::regclass and attnum > 0 and not attisdropped
            order by attnum`,
      );
      const values = columns.map((c) => `${ident(c.name)}::text`).join(", ");
      const rows = await queryRows<{ line: string }>(
        tx,
        sql.raw(
          `select to_json(array[${values}]::text[])::text as line from public.${ident(table)}${
            // The backups and restores being compared record themselves after the snapshot.
            table === "audit_events" ? ` where kind not like 'backup.%'` : ""
          }`,
        ),
      );
      out[table] = rows.map((r) => r.line).sort();
    }
    out["(sequences)"] = [];
    for (const name of await publicSequences(tx)) {
      const [s] = await queryRows<{ v: string }>(
        tx,
        sql.raw(
          `select last_value::text || ' ' || is_called::text as v from public.${ident(name)}`,
        ),
      );
      out["(sequences)"].push(`${name} ${s!.v}`);
    }
    const journal = await queryRows<{ v: string }>(
      tx,
      sql`select hash || ' ' || created_at::text as v from drizzle.__drizzle_migrations order by created_at`,
    );
    out["(migrations)"] = journal.map((r) => r.v);
    return out;
  });
}
