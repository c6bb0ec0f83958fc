import { localImageName } from "./html";

const IMG_TAG = /<img\b[^<>]*>/gi;
const ALT = /\salt\s*=\s*(?:"([^"]*)"|'([^']*)')/i;

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
