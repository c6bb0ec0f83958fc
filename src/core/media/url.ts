/**
 * A stored image's key and address, apart from the sanitizer in html.ts: a page that only shows a
 * question's images (the Practice Exam runner) then does not load the HTML sanitizer with them
 * (issue 35 item 2).
 */

/** A stored image's key: the lower-case hex SHA-256 of its bytes. */
const HASH = /^[0-9a-f]{64}$/;

export function isMediaHash(value: string): boolean {
  return HASH.test(value);
}

/** Where the web and REST clients fetch a stored image. */
export function mediaUrl(sha256: string): string {
  return `/api/media/${sha256}`;
}
