import crypto from "node:crypto";
import fs from "node:fs";
import { StringDecoder } from "node:string_decoder";
import zlib from "node:zlib";
import type { Writable } from "node:stream";

/*
 * The backup file (docs/decisions/330-backups-and-restores.md): gzip over JSON lines.
 *   line 1     the header: BackupHeader
 *   then, per table, `{"table": name, "columns": [names]}` followed by one JSON array per row, each value
 *              PostgreSQL's own text for it (or null), so every type comes back exactly as it was
 *   last line  `{"trailer": {"rows": {table: count}, "sha256": hex}}`, the SHA-256 of every byte before it
 * Rows start with `[`, every other line with `{`.
 */

export const BACKUP_FORMAT = "prite-backup";
export const BACKUP_VERSION = 1;

export interface BackupSchema {
  /** The tag of the newest migration applied (null when this release does not know it). */
  migration: string | null;
  /** How many migrations the database had applied. */
  migrations: number;
  /** drizzle's journal entry of the newest one: its file's hash and its folder time. */
  hash: string;
  createdAt: number;
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  createdAt: string;
  database: "pglite" | "postgres";
  schema: BackupSchema;
  tables: string[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
}

export interface TableSection {
  table: string;
  columns: string[];
}

export interface Trailer {
  rows: Record<string, number>;
  sha256: string;
}

/** Said when a file is not a whole, unaltered backup; nothing has been written when it is. */
export class DamagedBackupError extends Error {
  constructor(reason: string) {
    super(`The backup file is damaged or incomplete (${reason}); nothing was restored.`);
  }
}

/** Writes lines into gzip with back-pressure, hashing each for the trailer. */
export class BackupWriter {
  private readonly gzip = zlib.createGzip({ level: 6 });
  private readonly hash = crypto.createHash("sha256");
  private readonly done: Promise<void>;

  constructor(out: Writable) {
    this.gzip.pipe(out);
    this.done = new Promise((resolve, reject) => {
      out.on("finish", resolve);
      out.on("close", resolve);
      out.on("error", reject);
      this.gzip.on("error", reject);
    });
  }

  async line(text: string): Promise<void> {
    const bytes = `${text}\n`;
    this.hash.update(bytes);
    if (!this.gzip.write(bytes)) await new Promise((r) => this.gzip.once("drain", r));
  }

  async finish(rows: Record<string, number>): Promise<void> {
    const trailer: Trailer = { rows, sha256: this.hash.digest("hex") };
    this.gzip.end(`${JSON.stringify({ trailer })}\n`);
    await this.done;
  }
}

export type BackupLine =
  | { kind: "header"; header: BackupHeader }
  | { kind: "table"; section: TableSection }
  | { kind: "row"; text: string };

/**
 * Reads a backup file line by line, checking as it goes that the lines are what the format says and,
 * at the end, the trailer's counts and checksum: a damaged file throws DamagedBackupError, at the
 * latest after its last line (so a reader that writes must do so in a transaction it can roll back).
 */
export async function* readBackup(file: string): AsyncGenerator<BackupLine> {
  const hash = crypto.createHash("sha256");
  const counts: Record<string, number> = {};
  let header: BackupHeader | null = null;
  let table: string | null = null;
  let trailer: Trailer | null = null;
  const source = fs.createReadStream(file).pipe(zlib.createGunzip());
  let pending = "";
  // A character's bytes may be split between two chunks.
  const decoder = new StringDecoder("utf8");
  const lines = async function* () {
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        pending += decoder.write(chunk);
        let start = 0;
        let at: number;
        while ((at = pending.indexOf("\n", start)) >= 0) {
          yield pending.slice(start, at);
          start = at + 1;
        }
        pending = pending.slice(start);
      }
      pending += decoder.end();
    } catch (err) {
      throw new DamagedBackupError((err as Error).message);
    }
    if (pending !== "") throw new DamagedBackupError("its last line is cut off");
  };
  for await (const text of lines()) {
    if (trailer) throw new DamagedBackupError("there is more after its end");
    if (!header) {
      header = parseHeader(text);
      hash.update(`${text}\n`);
      yield { kind: "header", header };
      continue;
    }
    if (text.startsWith("[")) {
      if (!table) throw new DamagedBackupError("a row comes before its table");
      counts[table] = (counts[table] ?? 0) + 1;
      hash.update(`${text}\n`);
      yield { kind: "row", text };
      continue;
    }
    const parsed = parseJson(text) as { table?: string; columns?: string[]; trailer?: Trailer };
    if (parsed.trailer) {
      trailer = parsed.trailer;
      continue;
    }
    if (typeof parsed.table !== "string" || !Array.isArray(parsed.columns)) {
      throw new DamagedBackupError("a line is not part of the format");
    }
    table = parsed.table;
    counts[table] = 0;
    hash.update(`${text}\n`);
    yield { kind: "table", section: { table: parsed.table, columns: parsed.columns } };
  }
  if (!header) throw new DamagedBackupError("it is empty");
  if (!trailer) throw new DamagedBackupError("its end is missing");
  if (hash.digest("hex") !== trailer.sha256) {
    throw new DamagedBackupError("its checksum does not match its content");
  }
  for (const name of header.tables) {
    if ((counts[name] ?? -1) !== trailer.rows[name]) {
      throw new DamagedBackupError(`the rows of ${name} do not add up`);
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DamagedBackupError("a line is not valid JSON");
  }
}

function parseHeader(text: string): BackupHeader {
  const header = parseJson(text) as Partial<BackupHeader>;
  if (header.format !== BACKUP_FORMAT) {
    throw new DamagedBackupError("it is not a PRITE Study backup");
  }
  if (header.version !== BACKUP_VERSION) {
    throw new Error(
      `This backup's format (version ${String(header.version)}) is newer than this release reads: upgrade PRITE Study to restore it.`,
    );
  }
  return header as BackupHeader;
}

/** Reads the whole file once, checking it (restore checks before it writes): its header and row count. */
export async function verifyBackup(file: string): Promise<{ header: BackupHeader; rows: number }> {
  let header: BackupHeader | null = null;
  let rows = 0;
  for await (const line of readBackup(file)) {
    if (line.kind === "header") header = line.header;
    else if (line.kind === "row") rows += 1;
  }
  return { header: header!, rows };
}
