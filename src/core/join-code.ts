/**
 * Join codes, shared by mock exams and residency programs: 8 characters without the ones people misread
 * (0/O, 1/I/L), upper-case; typed codes are upper-cased and stripped of spaces and dashes first.
 */
export const JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const JOIN_CODE_LENGTH = 8;

export function normalizeJoinCode(code: string): string {
  return code.replace(/[\s-]/g, "").toUpperCase();
}

/** A join code from `JOIN_CODE_LENGTH` random integers (the server passes crypto-random ones). */
export function joinCodeFrom(randomInts: readonly number[]): string {
  let code = "";
  for (let i = 0; i < JOIN_CODE_LENGTH; i++) {
    const n = Math.abs(Math.trunc(randomInts[i] ?? 0));
    code += JOIN_CODE_ALPHABET[n % JOIN_CODE_ALPHABET.length];
  }
  return code;
}

/**
 * A fresh crypto-random join code (Web Crypto: the same in Node and the browser). Each character comes
 * from 30 random bits, so the modulo's bias over 31 characters is negligible.
 */
export function randomJoinCode(): string {
  const ints = new Uint32Array(JOIN_CODE_LENGTH);
  globalThis.crypto.getRandomValues(ints);
  return joinCodeFrom(Array.from(ints, (n) => n >>> 2));
}
