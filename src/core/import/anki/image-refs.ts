import { localImageName } from "./html";

const IMG_TAG = /<img\b[^<>]*>/gi;
const ALT = /\salt\s*=\s*(?:"([^"]*)"|'([^']*)')/i;
/** How stored HTML names an image: the lower-case hex SHA-256 of its bytes (issue 17 contract). */
export const MEDIA_HASH = /^[0-9a-f]{64}$/;

function imgTag(src: string, tag: string): string {
  const alt = ALT.exec(tag);
  const text = alt ? (alt[1] ?? alt[2] ?? "") : "";
  return text === "" ? `<img src="${src}">` : `<img src="${src}" alt="${text}">`;
}

/**
 * Sanitized Anki HTML with each `<img src="name.png">` pointing at the uploaded image's hash
 * (`<img src="<sha256>">`), as stored flashcards refer to images. An image that was not uploaded
 * (missing from the deck, or refused) is dropped: the converter has already warned about it.
 */
export function withImageHashes(html: string, hashes: ReadonlyMap<string, string>): string {
  return html.replace(IMG_TAG, (tag) => {
    const name = localImageName(tag);
    const hash = name === null ? undefined : hashes.get(name);
    return hash === undefined ? "" : imgTag(hash, tag);
  });
}

/**
 * The server's rule for stored flashcard HTML (already sanitized): an image stays only when its
 * `src` is a hash among `allowed` (the images the item declares); every other image goes.
 */
export function keepHashImages(html: string, allowed: ReadonlySet<string>): string {
  return html.replace(IMG_TAG, (tag) => {
    const src = localImageName(tag);
    return src !== null && MEDIA_HASH.test(src) && allowed.has(src) ? imgTag(src, tag) : "";
  });
}

/** The hashes a stored HTML shows, in order, each once. */
export function hashImages(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(IMG_TAG)) {
    const src = localImageName(m[0]);
    if (src !== null && MEDIA_HASH.test(src) && !out.includes(src)) out.push(src);
  }
  return out;
}
