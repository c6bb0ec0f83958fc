import { sanitizeHtml } from "../import/anki/html";
import { isMediaHash, mediaUrl } from "./url";

export { isMediaHash, mediaUrl } from "./url";

const IMG_TAG = /<img\b[^<>]*>/gi;
const SRC = /\ssrc="([^"]*)"/i;

/**
 * A flashcard side as stored: the core sanitizer's HTML (decision 180) whose images refer to stored
 * media by hash only (`<img src="<sha256>">`); an image naming anything else (a file name that was
 * never uploaded, a URL) is dropped. The sanitizer writes every attribute double-quoted and escaped,
 * so its output's tags can be read with a pattern.
 */
export function flashcardHtml(html: string): string {
  return sanitizeHtml(html)
    .replace(IMG_TAG, (tag) => (isMediaHash(SRC.exec(tag)?.[1] ?? "") ? tag : ""))
    .trim();
}

/** The media hashes a stored flashcard side shows, in order, each once. */
export function imageHashes(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(IMG_TAG)) {
    const src = SRC.exec(m[0])?.[1] ?? "";
    if (isMediaHash(src) && !out.includes(src)) out.push(src);
  }
  return out;
}

/**
 * HTML to put in the page: sanitized again (whatever the server sent, nothing runs), then each hash
 * image pointed at its URL, lazily loaded.
 */
export function toDisplayHtml(html: string): string {
  return flashcardHtml(html).replace(IMG_TAG, (tag) => {
    const hash = SRC.exec(tag)![1]!;
    return tag.replace(SRC, ` src="${mediaUrl(hash)}" loading="lazy"`);
  });
}
