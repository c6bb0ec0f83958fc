/**
 * A minimal ZIP writer for tests, so each test can build exactly the archive it needs (a zip bomb, a
 * lying header, an encrypted entry) — SheetJS's own writer cannot compress past about 70 times.
 */
import { deflateRawSync } from "node:zlib";

export interface EntrySpec {
  name: string;
  data: Uint8Array;
  method?: 0 | 8;
  /** Uncompressed size written in the headers, when it should lie. */
  declaredSize?: number;
  flags?: number;
  methodInHeader?: number;
}

const deflated = new WeakMap<Uint8Array, Buffer>();
function deflate(data: Uint8Array): Buffer {
  let out = deflated.get(data);
  if (!out) {
    out = deflateRawSync(data);
    deflated.set(data, out);
  }
  return out;
}

export function buildZip(entries: EntrySpec[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const method = e.method ?? 8;
    const body = method === 8 ? deflate(e.data) : Buffer.from(e.data);
    const name = Buffer.from(e.name, "utf8");
    const size = e.declaredSize ?? e.data.length;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(e.flags ?? 0, 6);
    header.writeUInt16LE(e.methodInHeader ?? method, 8);
    header.writeUInt32LE(body.length, 18);
    header.writeUInt32LE(size, 22);
    header.writeUInt16LE(name.length, 26);
    locals.push(header, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.flags ?? 0, 8);
    central.writeUInt16LE(e.methodInHeader ?? method, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, cd, eocd]));
}
