import {
  FILE_TOO_LARGE_MESSAGE,
  ImportError,
  MAX_FILE_BYTES,
  UNSUPPORTED_FORMAT_MESSAGE,
} from "./errors";

export type SpreadsheetKind = "csv" | "xls" | "xlsx";

/** Refuses a file by its name and size before anything reads its bytes (docs/product/validation.md bulk import). */
export function checkUpload(fileName: string, byteLength: number): SpreadsheetKind {
  const dot = fileName.lastIndexOf(".");
  const ext = dot === -1 ? "" : fileName.slice(dot + 1).toLowerCase();
  if (ext !== "csv" && ext !== "xls" && ext !== "xlsx") {
    throw new ImportError(UNSUPPORTED_FORMAT_MESSAGE);
  }
  if (byteLength > MAX_FILE_BYTES) throw new ImportError(FILE_TOO_LARGE_MESSAGE);
  return ext;
}

export const ZIP_LIMITS = {
  maxEntries: 1_000,
  maxTotalUncompressed: 100 * 1024 * 1024,
  maxRatio: 100,
  /** Small parts (styles, shared strings of a tiny sheet) legitimately compress very well. */
  ratioAppliesAbove: 1024 * 1024,
} as const;

/** What an archive may hold; the XLSX values are the default, an Anki package has its own. */
export interface ZipLimits {
  maxEntries: number;
  maxTotalUncompressed: number;
  maxRatio: number;
  ratioAppliesAbove: number;
}

export type ZipMessages = Record<keyof typeof ZIP_MESSAGES, string>;

/** Each kind of archive (workbook, Anki package) names itself in its messages and has its limits. */
export interface ZipGuardOptions {
  limits?: ZipLimits;
  messages?: ZipMessages;
}

export const ZIP_MESSAGES = {
  damaged: "The Excel file is damaged or is not a real .xlsx file.",
  tooManyEntries: "The Excel file has more than 1,000 internal parts. It was refused.",
  tooLarge: "The Excel file would expand to more than 100 MB. Split it into smaller files.",
  ratio:
    "The Excel file contains a part that expands more than 100 times (a possible zip bomb). It was refused.",
  encrypted: "The Excel file is encrypted. Remove its password and try again.",
  method: "The Excel file uses a compression method that is not supported.",
} as const;

export interface ZipEntry {
  /** The path inside the archive, as the central directory spells it. */
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Where the entry's data starts: after its local header, as a ZIP reader finds it. */
  dataOffset: number;
}

const SIG_EOCD = 0x06054b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATE = 8;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && u32(bytes, 0) === SIG_LOCAL;
}

/** The Compound File Binary signature of legacy .xls (and of password-protected .xlsx). */
export function isCfb(bytes: Uint8Array): boolean {
  const sig = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  return bytes.length >= 8 && sig.every((b, k) => bytes[k] === b);
}

/**
 * Reads the ZIP central directory (and each entry's local header) and refuses archives that are
 * damaged, encrypted or too big once expanded, using the sizes the archive declares. Pure and
 * synchronous; `guardZip` adds a check that the declared sizes are true.
 *
 * The End Of Central Directory record is looked for the way SheetJS looks for it (the last
 * signature in the file), so both read the same directory.
 */
export function inspectZip(bytes: Uint8Array, options: ZipGuardOptions = {}): ZipEntry[] {
  const limits = options.limits ?? ZIP_LIMITS;
  const messages = options.messages ?? ZIP_MESSAGES;
  const len = bytes.length;
  let eocd = -1;
  for (let k = len - 4; k >= 0; k--) {
    if (bytes[k] === 0x50 && bytes[k + 1] === 0x4b && u32(bytes, k) === SIG_EOCD) {
      eocd = k;
      break;
    }
  }
  if (eocd < 0 || eocd + 22 > len) throw new ImportError(messages.damaged);
  const entriesOnDisk = u16(bytes, eocd + 8);
  const totalEntries = u16(bytes, eocd + 10);
  const cdSize = u32(bytes, eocd + 12);
  const cdOffset = u32(bytes, eocd + 16);
  if (entriesOnDisk !== totalEntries || u16(bytes, eocd + 4) !== 0) {
    throw new ImportError(messages.damaged); // multi-disk archives are not spreadsheets
  }
  if (totalEntries > limits.maxEntries) throw new ImportError(messages.tooManyEntries);
  if (totalEntries === 0 || cdOffset + cdSize > eocd) throw new ImportError(messages.damaged);

  const entries: ZipEntry[] = [];
  let total = 0;
  let p = cdOffset;
  for (let k = 0; k < totalEntries; k++) {
    if (p + 46 > eocd || u32(bytes, p) !== SIG_CENTRAL) throw new ImportError(messages.damaged);
    const flags = u16(bytes, p + 8);
    const method = u16(bytes, p + 10);
    let compressedSize = u32(bytes, p + 20);
    let uncompressedSize = u32(bytes, p + 24);
    const nameLength = u16(bytes, p + 28);
    const name = utf8.decode(bytes.subarray(p + 46, p + 46 + nameLength));
    const extraLength = u16(bytes, p + 30);
    const commentLength = u16(bytes, p + 32);
    let localOffset = u32(bytes, p + 42);
    const extraStart = p + 46 + nameLength;
    p = extraStart + extraLength + commentLength;
    if (p > eocd) throw new ImportError(messages.damaged);

    const zip64 = readZip64Extra(bytes, extraStart, extraLength, messages, {
      uncompressed: uncompressedSize === 0xffffffff,
      compressed: compressedSize === 0xffffffff,
      offset: localOffset === 0xffffffff,
    });
    if (zip64.uncompressed !== undefined) uncompressedSize = zip64.uncompressed;
    if (zip64.compressed !== undefined) compressedSize = zip64.compressed;
    if (zip64.offset !== undefined) localOffset = zip64.offset;

    if (flags & 0x0041) throw new ImportError(messages.encrypted);
    if (method !== STORED && method !== DEFLATE) throw new ImportError(messages.method);

    if (localOffset + 30 > len || u32(bytes, localOffset) !== SIG_LOCAL) {
      throw new ImportError(messages.damaged);
    }
    // SheetJS decodes with the local header's flags and method: they must agree with the directory.
    if (u16(bytes, localOffset + 8) !== method) throw new ImportError(messages.damaged);
    if (u16(bytes, localOffset + 6) & 0x2041) throw new ImportError(messages.encrypted);
    const dataOffset =
      localOffset + 30 + u16(bytes, localOffset + 26) + u16(bytes, localOffset + 28);
    if (dataOffset + compressedSize > len) throw new ImportError(messages.damaged);
    // A stored entry is copied as is: its size is its size.
    if (method === STORED && compressedSize !== uncompressedSize) {
      throw new ImportError(messages.damaged);
    }

    if (
      uncompressedSize > limits.ratioAppliesAbove &&
      uncompressedSize > compressedSize * limits.maxRatio
    ) {
      throw new ImportError(messages.ratio);
    }
    total += uncompressedSize;
    if (total > limits.maxTotalUncompressed) throw new ImportError(messages.tooLarge);
    entries.push({ name, method, compressedSize, uncompressedSize, dataOffset });
  }
  return entries;
}

/**
 * `inspectZip`, then proof that each compressed entry really expands to the size it declares: a
 * crafted archive can declare small sizes and hold a bomb, and SheetJS inflates until the stream
 * ends whatever the headers say. Decompression is streamed and stopped as soon as an entry
 * produces more than it declared, so a bomb costs at most the 100 MB budget. Where the platform
 * has no DecompressionStream (very old browsers), the declared sizes are all we can check.
 */
export async function guardZip(bytes: Uint8Array, options: ZipGuardOptions = {}): Promise<void> {
  const entries = inspectZip(bytes, options);
  if (typeof DecompressionStream === "undefined") return;
  const messages = options.messages ?? ZIP_MESSAGES;
  for (const entry of entries) {
    if (entry.method !== DEFLATE) continue;
    const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
    await inflate(data, entry.uncompressedSize, messages, false);
  }
}

/**
 * The bytes of one entry that `inspectZip` listed. Inflation stops (ImportError) as soon as the
 * entry produces more than it declared, and an entry that produces less is damaged, so what comes
 * back never exceeds the budget `inspectZip` checked. Needs DecompressionStream (every current
 * browser, Node 18+): readers that depend on it, unlike SheetJS, cannot fall back to trusting sizes.
 */
export async function readZipEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  messages: ZipMessages = ZIP_MESSAGES,
): Promise<Uint8Array> {
  const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (entry.method === STORED) return data.slice();
  const out = await inflate(data, entry.uncompressedSize, messages, true);
  return out ?? new Uint8Array(0);
}

/**
 * Inflates `data`, giving up (with an ImportError) past `limit` or short of it. With `keep` false
 * the output is only counted, which is all the guard needs.
 */
async function inflate(
  data: Uint8Array,
  limit: number,
  messages: ZipMessages,
  keep: boolean,
): Promise<Uint8Array | null> {
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const CHUNK = 64 * 1024;
  // The writer runs beside the reader: awaiting each write before reading would deadlock once the
  // readable side fills up.
  const writing = (async () => {
    for (let at = 0; at < data.length; at += CHUNK) {
      await writer.write(data.slice(at, at + CHUNK));
    }
    await writer.close();
  })();
  writing.catch(() => undefined);
  let total = 0;
  const out = keep ? new Uint8Array(limit) : null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (total + value.byteLength > limit) {
        await reader.cancel().catch(() => undefined);
        throw new ImportError(messages.damaged);
      }
      out?.set(value, total);
      total += value.byteLength;
    }
    await writing;
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(messages.damaged);
  }
  if (total !== limit) throw new ImportError(messages.damaged);
  return out;
}

function readZip64Extra(
  bytes: Uint8Array,
  start: number,
  length: number,
  messages: ZipMessages,
  want: { uncompressed: boolean; compressed: boolean; offset: boolean },
): { uncompressed?: number; compressed?: number; offset?: number } {
  const out: { uncompressed?: number; compressed?: number; offset?: number } = {};
  if (!want.uncompressed && !want.compressed && !want.offset) return out;
  const end = start + length;
  let q = start;
  while (q + 4 <= end) {
    const id = u16(bytes, q);
    const size = u16(bytes, q + 2);
    const body = q + 4;
    if (body + size > end) break;
    if (id === 0x0001) {
      let r = body;
      const next = (): number => {
        if (r + 8 > body + size) throw new ImportError(messages.damaged);
        const value = u32(bytes, r) + u32(bytes, r + 4) * 0x100000000;
        r += 8;
        return value;
      };
      if (want.uncompressed) out.uncompressed = next();
      if (want.compressed) out.compressed = next();
      if (want.offset) out.offset = next();
      return out;
    }
    q = body + size;
  }
  // A size marked "see ZIP64 extra" without that extra field cannot be trusted.
  throw new ImportError(messages.damaged);
}

const utf8 = new TextDecoder();

function u16(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
}

function u32(b: Uint8Array, at: number): number {
  return (
    ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16)) +
    (b[at + 3] ?? 0) * 0x1000000
  );
}
