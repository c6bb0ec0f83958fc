import { MEDIA, type MediaType } from "../constants";
import { decodeUtf8, sniffImageType } from "./sniff";
import { sanitizeSvg } from "./svg";

export { sniffImageType } from "./sniff";
export { sanitizeSvg } from "./svg";
export { flashcardHtml, imageHashes, isMediaHash, mediaUrl, toDisplayHtml } from "./html";

const MB = MEDIA.MAX_BYTES / (1024 * 1024);

export const MEDIA_MESSAGES = {
  EMPTY: "The image file is empty",
  TOO_LARGE: `Images must be at most ${MB} MB`,
  NOT_AN_IMAGE: "This file is not an image PRITE Study can show: use PNG, JPEG, GIF, WebP or SVG",
  SVG_EMPTY: "This SVG image has nothing left to show once scripts and links are removed",
  NOT_FOUND: "Image not found",
  NOT_UPLOADED: "An image on this question has not been uploaded: add it again",
} as const;

export type PreparedImage =
  { ok: true; mimeType: MediaType; bytes: Uint8Array } | { ok: false; message: string };

/**
 * The bytes to store for an uploaded image: its type read from the bytes (a declared type or a file
 * name is never trusted), an SVG reduced to drawing only, at most MEDIA.MAX_BYTES; or the reason it
 * is refused, in the product's words.
 */
export function prepareImage(bytes: Uint8Array): PreparedImage {
  if (bytes.length === 0) return { ok: false, message: MEDIA_MESSAGES.EMPTY };
  if (bytes.length > MEDIA.MAX_BYTES) return { ok: false, message: MEDIA_MESSAGES.TOO_LARGE };
  const mimeType = sniffImageType(bytes);
  if (mimeType === null) return { ok: false, message: MEDIA_MESSAGES.NOT_AN_IMAGE };
  if (mimeType !== "image/svg+xml") return { ok: true, mimeType, bytes };
  const svg = sanitizeSvg(decodeUtf8(bytes) ?? "");
  if (svg === null) return { ok: false, message: MEDIA_MESSAGES.SVG_EMPTY };
  const out = new TextEncoder().encode(svg);
  if (out.length > MEDIA.MAX_BYTES) return { ok: false, message: MEDIA_MESSAGES.TOO_LARGE };
  return { ok: true, mimeType, bytes: out };
}
