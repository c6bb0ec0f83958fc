import type { LanguageModel } from "ai";
import type { Db } from "../db/client";
import type { SessionRow, UserRow } from "../db/schema";
import type { SessionCache } from "../auth/session-cache";
import type { ThrottleLimits } from "../auth/throttle";
import { DEFAULT_THROTTLE } from "../auth/throttle";
import type { Mailer } from "../mail/mailer";

export interface AppConfig {
  throttle: ThrottleLimits;
  /** The language model, or null when no AI is configured (every AI feature has a deterministic path). */
  aiModel: LanguageModel | null;
  /** Sends password reset links (SMTP_URL, MAIL_FROM); absent: only admins make reset links. */
  mailer?: Mailer | null;
  /** PUBLIC_URL: where links in mail and admins' reset links point. */
  publicUrl?: string | null;
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
  /** What a procedure reads of a session (the CLI's local mode and tests make one up). */
  session?: Pick<SessionRow, "id" | "userId" | "expiresAt" | "createdAt"> | null;
  config?: Partial<AppConfig>;
  /** The HTTP server's validated sessions, which every mutation must keep honest (trpc/init.ts). */
  sessionCache?: SessionCache;
  ip?: string;
  /** The client's User-Agent, kept with a new session for Settings' session list. */
  userAgent?: string;
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
      mailer: opts.config?.mailer ?? null,
      publicUrl: opts.config?.publicUrl ?? null,
      signIn: opts.config?.signIn ?? PASSWORDS_ONLY,
    } satisfies AppConfig,
    sessionCache: opts.sessionCache ?? null,
    ip: opts.ip ?? LOCAL_CALLER_IP,
    userAgent: opts.userAgent ?? "",
    timeZone: opts.timeZone ?? null,
    returnToken: opts.returnToken ?? false,
    setSessionCookie: opts.setSessionCookie ?? (() => {}),
    clearSessionCookie: opts.clearSessionCookie ?? (() => {}),
    now: opts.now ?? (() => new Date()),
  };
}

export type Context = ReturnType<typeof createContextInner>;
