/**
 * Common passwords refused (ASVS 5 V6.2, issue 24): the 49,233 most common passwords of
 * `@zxcvbn-ts/language-common` (the same list the web forms' strength meter reads). Loaded on the
 * first check, not at start, so a server that only serves study pays nothing for it.
 */
export const COMMON_PASSWORD_MESSAGE =
  "This password is on a list of common passwords that attackers try first. Please choose another.";

let common: Promise<Set<string>> | null = null;

function commonPasswords(): Promise<Set<string>> {
  common ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) =>
      new Set((dictionary["passwords-common"] as string[]).map((p) => p.toLowerCase())),
  );
  return common;
}

/** Whether the password, in any letter case, is on the common-passwords list. */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}
