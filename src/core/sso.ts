import { LIMITS } from "./constants";

/**
 * Sign-in with the institution's account (issue 33): the words the server and the screens share, and
 * the username a first sign-in proposes. Pure: the server checks which names are taken.
 */

/** Why a sign-in with the provider ended on Sign In; carried as `/login?sso=<code>`. */
export const SSO_OUTCOMES = ["failed", "domain", "unverified", "no-email", "expired"] as const;
export type SsoOutcome = (typeof SSO_OUTCOMES)[number];

export function ssoMessage(outcome: SsoOutcome, name: string): string {
  switch (outcome) {
    case "failed":
      return `Signing in with ${name} did not work. Please try again.`;
    case "domain":
      return `Accounts from this email domain cannot sign in here. Please use your program's ${name} account.`;
    case "unverified":
      return `An account with this email already exists, but ${name} has not confirmed that the email is yours, so it cannot be linked. Sign in with your password instead.`;
    case "no-email":
      return `${name} did not share your email address, so no account can be made or found.`;
    case "expired":
      return `Your sign-in with ${name} has expired. Please start again.`;
  }
}

export function isSsoOutcome(value: unknown): value is SsoOutcome {
  return (SSO_OUTCOMES as readonly unknown[]).includes(value);
}

export const passwordSignInOffMessage = (name: string) =>
  `Password sign-in is turned off on this server. Please use "Sign in with ${name}".`;

export const ssoAlreadyLinkedMessage = (name: string) =>
  `This ${name} account is already linked to a PRITE Study account.`;

export const SSO_NOT_SET_UP = "Sign-in with an institution's account is not set up on this server.";

/** The domain of an email address, lower case ('' when there is none). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf("@");
  return at < 0
    ? ""
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

/** True when no list is set, or the email's domain is on it. */
export function emailDomainAllowed(email: string, allowed: readonly string[]): boolean {
  return allowed.length === 0 || allowed.includes(emailDomain(email));
}

/**
 * The username a first sign-in proposes: the email's local part reduced to the characters a username
 * allows, padded to the minimum length; `attempt` > 0 adds a number to make it unique.
 */
export function proposedUsername(email: string, attempt = 0): string {
  const local = email.slice(0, Math.max(0, email.lastIndexOf("@"))) || email;
  let base = local
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "")
    .slice(0, LIMITS.USERNAME_MAX);
  if (base.length < LIMITS.USERNAME_MIN) base = (base + "user").slice(0, LIMITS.USERNAME_MAX);
  if (attempt === 0) return base;
  const suffix = String(attempt + 1);
  return base.slice(0, LIMITS.USERNAME_MAX - suffix.length) + suffix;
}
