import { hash, verify } from "@node-rs/argon2";

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane. 2 = Algorithm.Argon2id (a const enum).
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Hashing for unknown usernames too keeps sign-in timing the same whether or not the user exists. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword("not-a-real-password-but-same-cost");
  await verifyPassword(await dummyHash, password);
}
