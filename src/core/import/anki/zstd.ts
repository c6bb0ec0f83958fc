import { Decompress } from "fzstd";

/** The four bytes every Zstandard frame starts with (0xFD2FB528, little-endian). */
export function isZstd(bytes: Uint8Array): boolean {
  return bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd;
}

/** Thrown for a stream that is not valid zstd or that expands past its budget. */
export class ZstdLimitError extends Error {
  constructor(readonly reason: "damaged" | "tooLarge") {
    super(reason);
  }
}

/**
 * Windows above this are refused before decoding: the decoder allocates the window up front (up
 * to 2 GB for a crafted header), and Anki's own files use windows of a few MB.
 */
const MAX_WINDOW = 128 * 1024 * 1024;

/**
 * Decompresses a zstd stream, refusing (ZstdLimitError) one that would produce more than
 * `maxBytes` or whose headers ask for an oversized window. fzstd's one-shot `decompress` trusts a
 * frame's declared size and allocates it at once, so the streaming decoder is used and its output
 * counted chunk by chunk; every frame header is checked first, by walking the block headers,
 * because the streaming decoder allocates each frame's window as it reaches it.
 */
export function zstdDecompress(data: Uint8Array, maxBytes: number): Uint8Array {
  checkFrames(data, Math.min(maxBytes, MAX_WINDOW));
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((chunk) => {
    total += chunk.length;
    if (total > maxBytes) throw new ZstdLimitError("tooLarge");
    chunks.push(chunk);
  });
  try {
    stream.push(data, true);
  } catch (error) {
    if (error instanceof ZstdLimitError) throw error;
    throw new ZstdLimitError("damaged");
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function checkFrames(data: Uint8Array, maxWindow: number): void {
  let at = 0;
  if (data.length < 4) throw new ZstdLimitError("damaged");
  while (at < data.length) {
    if (at + 8 > data.length) throw new ZstdLimitError("damaged");
    const magic = u32(data, at);
    if ((magic & 0xfffffff0) >>> 0 === 0x184d2a50) {
      at += 8 + u32(data, at + 4); // skippable frame: its size follows the magic
      continue;
    }
    if (magic !== 0xfd2fb528) throw new ZstdLimitError("damaged");
    const descriptor = data[at + 4] ?? 0;
    const sizeFlag = descriptor >> 6;
    const singleSegment = (descriptor >> 5) & 1;
    const checksum = (descriptor >> 2) & 1;
    const dictFlag = descriptor & 3;
    let p = at + 5;
    let window = 0;
    if (!singleSegment) {
      const wd = data[p++] ?? 0;
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
    }
    p += [0, 1, 2, 4][dictFlag] ?? 0;
    const sizeBytes = [singleSegment, 2, 4, 8][sizeFlag] ?? 0;
    let contentSize = 0;
    for (let k = sizeBytes - 1; k >= 0; k--) contentSize = contentSize * 256 + (data[p + k] ?? 0);
    if (sizeBytes === 2) contentSize += 256;
    p += sizeBytes;
    if (singleSegment) window = contentSize;
    if (window > maxWindow) throw new ZstdLimitError("tooLarge");
    // Blocks: a 3-byte header (last flag, type, size); an RLE block stores one byte.
    for (;;) {
      if (p + 3 > data.length) throw new ZstdLimitError("damaged");
      const header = (data[p] ?? 0) | ((data[p + 1] ?? 0) << 8) | ((data[p + 2] ?? 0) << 16);
      const last = header & 1;
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      if (type === 3) throw new ZstdLimitError("damaged");
      p += 3 + (type === 1 ? 1 : size);
      if (last) break;
    }
    at = p + (checksum ? 4 : 0);
  }
  if (at !== data.length) throw new ZstdLimitError("damaged");
}

function u32(b: Uint8Array, at: number): number {
  return (
    ((b[at] ?? 0) |
      ((b[at + 1] ?? 0) << 8) |
      ((b[at + 2] ?? 0) << 16) |
      ((b[at + 3] ?? 0) << 24)) >>>
    0
  );
}
