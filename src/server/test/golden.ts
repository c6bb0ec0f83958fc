import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { createDb } from "../db/client";
import { migrationsFolder, runMigrations } from "../db/migrate";

/** Named by the migrations' content, so a changed migration never reuses a stale image. */
export function migrationsHash(): string {
  const dir = migrationsFolder();
  const h = crypto.createHash("sha256");
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (fs.statSync(p).isDirectory()) walk(p);
      else h.update(name).update(fs.readFileSync(p));
    }
  };
  walk(dir);
  return h.digest("hex").slice(0, 16);
}

export function goldenImagePath(): string {
  return path.join(process.cwd(), ".tmp", `pglite-golden-${migrationsHash()}.tar`);
}

export function templateDbName(): string {
  return `prite_tpl_${migrationsHash()}`;
}

export function adminUrl(url: string, database = "postgres"): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Migrates a fresh PGlite once and dumps it uncompressed (loads ~40% faster than gzip); each test file starts from a copy (~0.6 s, not 3-6 s). */
export async function ensurePgliteGolden(): Promise<string> {
  const file = goldenImagePath();
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const handle = await createDb({ memory: true });
  await runMigrations(handle);
  const client = (handle.db as unknown as { $client: { dumpDataDir(c: string): Promise<Blob> } })
    .$client;
  const blob = await client.dumpDataDir("none");
  await handle.close();
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
  fs.renameSync(tmp, file);
  return file;
}

/** A migrated template database on the server; test files clone it with CREATE DATABASE … TEMPLATE. */
export async function ensurePostgresTemplate(url: string): Promise<string> {
  const name = templateDbName();
  const admin = postgres(adminUrl(url), { max: 1, onnotice: () => {} });
  try {
    await admin`select pg_advisory_lock(70111002)`;
    const exists = await admin`select 1 from pg_database where datname = ${name}`;
    if (exists.length === 0) {
      const building = `${name}_build`;
      await admin.unsafe(`drop database if exists "${building}"`);
      await admin.unsafe(`create database "${building}"`);
      const handle = await createDb({ databaseUrl: adminUrl(url, building), maxConnections: 1 });
      await runMigrations(handle);
      await handle.close();
      await admin.unsafe(`alter database "${building}" rename to "${name}"`);
    }
    await admin`select pg_advisory_unlock(70111002)`;
  } finally {
    await admin.end();
  }
  return name;
}
