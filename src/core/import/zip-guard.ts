import {
  FILE_TOO_LARGE_MESSAGE,
  ImportError,
  MAX_FILE_BYTES,
  UNSUPPORTED_FORMAT_MESSAGE,
} from "./errors";

export type SpreadsheetKind = "csv" | "xls" | "xlsx";

/** Refuses a file by its name and size before anything reads its bytes (SPEC §5 bulk import). */
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
export function inspectZip(bytes: Uint8Array): ZipEntry[] {
  const len = bytes.length;
  let eocd = -1;
  for (let k = len - 4; k >= 0; k--) {
    if (bytes[k] === 0x50 && bytes[k + 1] === 0x4b && u32(bytes, k) === SIG_EOCD) {
      eocd = k;
      break;
    }
  }
  if (eocd < 0 || eocd + 22 > len) throw new ImportError(ZIP_MESSAGES.damaged);
  const entriesOnDisk = u16(bytes, eocd + 8);
  const totalEntries = u16(bytes, eocd + 10);
  const cdSize = u32(bytes, eocd + 12);
  const cdOffset = u32(bytes, eocd + 16);
  if (entriesOnDisk !== totalEntries || u16(bytes, eocd + 4) !== 0) {
    throw new ImportError(ZIP_MESSAGES.damaged); // multi-disk archives are not spreadsheets
  }
  if (totalEntries > ZIP_LIMITS.maxEntries) throw new ImportError(ZIP_MESSAGES.tooManyEntries);
  if (totalEntries === 0 || cdOffset + cdSize > eocd) throw new ImportError(ZIP_MESSAGES.damaged);

  const entries: ZipEntry[] = [];
  let total = 0;
  let p = cdOffset;
  for (let k = 0; k < totalEntries; k++) {
    if (p + 46 > eocd || u32(bytes, p) !== SIG_CENTRAL) throw new ImportError(ZIP_MESSAGES.damaged);
    const flags = u16(bytes, p + 8);
    const method = u16(bytes, p + 10);
    let compressedSize = u32(bytes, p + 20);
    let uncompressedSize = u32(bytes, p + 24);
    const nameLength = u16(bytes, p + 28);
    const extraLength = u16(bytes, p + 30);
    const commentLength = u16(bytes, p + 32);
    let localOffset = u32(bytes, p + 42);
    const extraStart = p + 46 + nameLength;
    p = extraStart + extraLength + commentLength;
    if (p > eocd) throw new ImportError(ZIP_MESSAGES.damaged);

    const zip64 = readZip64Extra(bytes, extraStart, extraLength, {
      uncompressed: uncompressedSize === 0xffffffff,
      compressed: compressedSize === 0xffffffff,
      offset: localOffset === 0xffffffff,
    });
    if (zip64.uncompressed !== undefined) uncompressedSize = zip64.uncompressed;
    if (zip64.compressed !== undefined) compressedSize = zip64.compressed;
    if (zip64.offset !== undefined) localOffset = zip64.offset;

    if (flags & 0x0041) throw new ImportError(ZIP_MESSAGES.encrypted);
    if (method !== STORED && method !== DEFLATE) throw new ImportError(ZIP_MESSAGES.method);

    if (localOffset + 30 > len || u32(bytes, localOffset) !== SIG_LOCAL) {
      throw new ImportError(ZIP_MESSAGES.damaged);
    }
    // SheetJS decodes with the local header's flags and method: they must agree with the directory.
    if (u16(bytes, localOffset + 8) !== method) throw new ImportError(ZIP_MESSAGES.damaged);
    if (u16(bytes, localOffset + 6) & 0x2041) throw new ImportError(ZIP_MESSAGES.encrypted);
    const dataOffset =
      localOffset + 30 + u16(bytes, localOffset + 26) + u16(bytes, localOffset + 28);
    if (dataOffset + compressedSize > len) throw new ImportError(ZIP_MESSAGES.damaged);
    // A stored entry is copied as is: its size is its size.
    if (method === STORED && compressedSize !== uncompressedSize) {
      throw new ImportError(ZIP_MESSAGES.damaged);
    }

    if (
      uncompressedSize > ZIP_LIMITS.ratioAppliesAbove &&
      uncompressedSize > compressedSize * ZIP_LIMITS.maxRatio
    ) {
      throw new ImportError(ZIP_MESSAGES.ratio);
    }
    total += uncompressedSize;
    if (total > ZIP_LIMITS.maxTotalUncompressed) throw new ImportError(ZIP_MESSAGES.tooLarge);
    entries.push({ method, compressedSize, uncompressedSize, dataOffset });
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
export async function guardZip(bytes: Uint8Array): Promise<void> {
  const entries = inspectZip(bytes);
  if (typeof DecompressionStream === "undefined") return;
  for (const entry of entries) {
    if (entry.method !== DEFLATE) continue;
    const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
    const produced = await inflatedSize(data, entry.uncompressedSize);
    if (produced !== entry.uncompressedSize) throw new ImportError(ZIP_MESSAGES.damaged);
  }
}

/** Bytes `data` inflates to, giving up (with an ImportError) past `limit`. */
async function inflatedSize(data: Uint8Array, limit: number): Promise<number> {
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
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw new ImportError(ZIP_MESSAGES.damaged);
      }
    }
    await writing;
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(ZIP_MESSAGES.damaged);
  }
  return total;
}

function readZip64Extra(
  bytes: Uint8Array,
  start: number,
  length: number,
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
        if (r + 8 > body + size) throw new ImportError(ZIP_MESSAGES.damaged);
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
  throw new ImportError(ZIP_MESSAGES.damaged);
}

function u16(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
}

function u32(b: Uint8Array, at: number): number {
  return (
    ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16)) +
    (b[at + 3] ?? 0) * 0x1000000
  );
}
