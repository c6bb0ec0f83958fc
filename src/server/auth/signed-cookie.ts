import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A value the browser carries but cannot forge or keep past its time: JSON in base64url, its expiry,
 * and an HMAC-SHA256 over both. Not secret from the browser that holds it (decision 336).
 */
export function sealValue(key: Buffer, value: unknown, expiresAtMs: number): string {
  const body = Buffer.from(JSON.stringify({ v: value, e: expiresAtMs })).toString("base64url");
  return `${body}.${mac(key, body)}`;
}

/** The value, or null when the cookie is missing, altered, or past its time. */
export function openValue<T>(key: Buffer, sealed: string | undefined, nowMs: number): T | null {
  if (!sealed) return null;
  const dot = sealed.lastIndexOf(".");
  if (dot <= 0) return null;
  const body = sealed.slice(0, dot);
  const given = Buffer.from(sealed.slice(dot + 1), "base64url");
  const expected = Buffer.from(mac(key, body), "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const { v, e } = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as {
      v: T;
      e: number;
    };
    return typeof e === "number" && e > nowMs ? v : null;
  } catch {
    return null;
  }
}

/** A key for one purpose, derived from a secret the operator set. */
export function derivedKey(secret: string, purpose: string): Buffer {
  return createHmac("sha256", secret).update(`prite-study:${purpose}`).digest();
}

function mac(key: Buffer, body: string): string {
  return createHmac("sha256", key).update(body).digest("base64url");
}
