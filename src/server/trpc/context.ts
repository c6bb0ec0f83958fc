import type { LanguageModel } from "ai";
import type { Db } from "../db/client";
import type { SessionRow, UserRow } from "../db/schema";
import type { SessionCache } from "../auth/session-cache";
import type { ThrottleLimits } from "../auth/throttle";
import { DEFAULT_THROTTLE } from "../auth/throttle";

export interface AppConfig {
  throttle: ThrottleLimits;
  /** The language model, or null when no AI is configured (every AI feature has a deterministic path). */
  aiModel: LanguageModel | null;
  /** What Sign In offers (issue 33); omitted: passwords only. */
  signIn?: SignInOptions;
}

/** Sign In's choices, public: the SPA reads them with `auth.signInOptions`. */
export interface SignInOptions {
  passwordSignIn: boolean;
  /** The button's "Sign in with {name}", or null when no institution's account is set up. */
  ssoName: string | null;
}

export const PASSWORDS_ONLY: SignInOptions = { passwordSignIn: true, ssoName: null };

export interface ContextInnerOptions {
  db: Db;
  user?: UserRow | null;
  session?: SessionRow | null;
  config?: Partial<AppConfig>;
  /** The HTTP server's validated sessions, which every mutation must keep honest (trpc/init.ts). */
  sessionCache?: SessionCache;
  ip?: string;
  timeZone?: string | null;
  /** REST and CLI clients receive the session token in the body; the SPA gets a cookie instead. */
  returnToken?: boolean;
  setSessionCookie?: (token: string, expiresAt: Date) => void;
  clearSessionCookie?: () => void;
  now?: () => Date;
}

/** The address of an in-process caller (the CLI's local mode, tests): no network is involved. */
export const LOCAL_CALLER_IP = "local";

/** Transport-free context: tests, REST, CLI and the HTTP adapter all build it here. */
export function createContextInner(opts: ContextInnerOptions) {
  return {
    db: opts.db,
    user: opts.user ?? null,
    session: opts.session ?? null,
    config: {
      throttle: opts.config?.throttle ?? DEFAULT_THROTTLE,
      aiModel: opts.config?.aiModel ?? null,
      signIn: opts.config?.signIn ?? PASSWORDS_ONLY,
    } satisfies AppConfig,
    sessionCache: opts.sessionCache ?? null,
    ip: opts.ip ?? LOCAL_CALLER_IP,
    timeZone: opts.timeZone ?? null,
    returnToken: opts.returnToken ?? false,
    setSessionCookie: opts.setSessionCookie ?? (() => {}),
    clearSessionCookie: opts.clearSessionCookie ?? (() => {}),
    now: opts.now ?? (() => new Date()),
  };
}

export type Context = ReturnType<typeof createContextInner>;
