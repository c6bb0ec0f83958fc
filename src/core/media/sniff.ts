import type { MediaType } from "../constants";

/**
 * The image type of `bytes`, read from the bytes themselves (never from a file name or a declared
 * type): the fixed signatures of PNG, JPEG, GIF and WebP, and for SVG an XML text whose first element
 * is <svg>. Anything else is null. Five fixed signatures are shorter to check here than a general
 * detector (file-type has no SVG and reads streams through Node built-ins), decision 231.
 */
export function sniffImageType(bytes: Uint8Array): MediaType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWithText(bytes, "GIF87a") || startsWithText(bytes, "GIF89a")) return "image/gif";
  if (startsWithText(bytes, "RIFF") && startsWithText(bytes.subarray(8), "WEBP")) {
    return "image/webp";
  }
  if (looksLikeSvg(bytes)) return "image/svg+xml";
  return null;
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);
}

function startsWithText(bytes: Uint8Array, text: string): boolean {
  return startsWith(
    bytes,
    [...text].map((c) => c.charCodeAt(0)),
  );
}

/** What may come before the root element of an XML document: a declaration, comments, a doctype. */
const PROLOG = /^(?:\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^[>]*(?:\[[^\]]*\][^>]*)?>)*/i;

/** Text that decodes as UTF-8 whose first element, after the XML prolog, is <svg>. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const text = decodeUtf8(bytes);
  if (text === null) return false;
  const body = text.replace(/^\ufeff/, "");
  const rest = body.slice(PROLOG.exec(body)?.[0].length ?? 0);
  return /^<svg[\s>/]/i.test(rest);
}

/** The text of UTF-8 bytes, or null when they are not valid UTF-8 (so not an SVG). */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
