/**
 * Text helpers that stay linear on hostile input (issue 24): a regular expression like `/[ \t]+$/` or
 * `/[ \t]+\n/g` retries from every position of a long run of blanks that is not followed by what it
 * needs, which is quadratic; these scan once.
 */

/** `text` without the trailing characters that are in `chars`. */
export function trimEndChars(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Each line without its trailing spaces and tabs. */
export function trimLineEnds(text: string): string {
  return text
    .split("\n")
    .map((line) => trimEndChars(line, " \t"))
    .join("\n");
}

/** Drops U+0000, which PostgreSQL cannot store in text (imported files and pasted text). */
export function dropNul(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "") : text;
}

/** Whether any string inside a JSON-like value holds U+0000 (keys included). */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (depth > 64 || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value).some(
    ([key, item]) => key.includes("\u0000") || containsNul(item, depth + 1),
  );
}

/** The same value with U+0000 dropped from every string inside it. */
export function withoutNul<T>(value: T, depth = 0): T {
  if (typeof value === "string") return dropNul(value) as T;
  if (depth > 64 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => withoutNul(item, depth + 1)) as T;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [dropNul(key), withoutNul(item, depth + 1)]),
  ) as T;
}
