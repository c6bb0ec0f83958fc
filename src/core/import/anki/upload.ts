import { prepareImage } from "../../media";
import { ImportError } from "../errors";
import { ANKI_MESSAGES } from "./messages";

/** Base64 of bytes, in chunks (a 5 MB image would overflow one `String.fromCharCode` call). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Sends one image (base64) and answers its stored hash: `imports.uploadMedia`. */
export type UploadImage = (data: string) => Promise<{ sha256: string }>;

/** Images sent at once: enough to hide a round trip, few enough to keep memory flat. */
const PARALLEL = 4;

/**
 * Uploads the deck's images the drafts show (each file once) before the commit, answering media
 * name → SHA-256. Every file is checked first with the server's own rule (type read from the bytes,
 * at most 5 MB), so a deck holding a file that is not an image stops before anything is sent; a
 * refusal by the server stops it the same way, before any question is written.
 */
export async function uploadDeckImages(
  names: readonly string[],
  media: ReadonlyMap<string, Uint8Array>,
  upload: UploadImage,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<Map<string, string>> {
  const todo = names.filter((name) => media.has(name));
  for (const name of todo) {
    const checked = prepareImage(media.get(name)!);
    if (!checked.ok) throw new ImportError(ANKI_MESSAGES.badImage(name, checked.message));
  }
  const hashes = new Map<string, string>();
  let next = 0;
  let done = 0;
  onProgress(0, todo.length);
  const worker = async (): Promise<void> => {
    while (next < todo.length) {
      const name = todo[next++]!;
      try {
        const { sha256 } = await upload(bytesToBase64(media.get(name)!));
        hashes.set(name, sha256);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new ImportError(ANKI_MESSAGES.badImage(name, reason));
      }
      onProgress(++done, todo.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, todo.length) }, worker));
  return hashes;
}
