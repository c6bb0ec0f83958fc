/**
 * zxcvbn-ts with its common-passwords and diceware lists (~1 MB): only ever imported dynamically, by
 * the strength meter, so the first page load does not carry it.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

const checker = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
const common = new Set((dictionary["passwords-common"] as string[]).map((p) => p.toLowerCase()));

export interface PasswordStrength {
  /** zxcvbn's 0 (too guessable) to 4 (very unguessable). */
  score: 0 | 1 | 2 | 3 | 4;
  /** On the common-passwords list the server refuses. */
  common: boolean;
}

export function checkPassword(password: string): PasswordStrength {
  return {
    score: checker.check(password.slice(0, 200)).score,
    common: common.has(password.toLowerCase()),
  };
}
