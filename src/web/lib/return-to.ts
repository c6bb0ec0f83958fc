/**
 * Where Sign In sends a visitor back to (`/login?redirect=…`): only a path of this site, never another
 * origin ("//evil.example", "https://…", "/\\evil"), so a crafted link cannot send a user elsewhere
 * after signing in. Anything else answers undefined, and Sign In goes home as before.
 */
export function safeReturnTo(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > 500) return undefined;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  const base = "https://same-origin.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Pages opened from outside the app (a program's join link) come back after signing in; the other
 * signed-in pages send a signed-out visitor to plain Sign In, as before (docs/decisions/349).
 */
export function returnToFor(pathname: string): string | undefined {
  return pathname.startsWith("/join/") ? safeReturnTo(pathname) : undefined;
}
