import type { Command } from "commander";
import { describeError, printJson } from "./output";
import { openSession, type GlobalOptions, type Session } from "./runtime";

export interface ActionContext {
  session: Session;
  opts: GlobalOptions;
  /** Prints `human` on a terminal, or `json` (or the human value) as JSON with --json. */
  out(human: string, json?: unknown): void;
}

/**
 * An error in the product's words. A procedure that needs a signed-in user says how to get one: in local
 * mode an account to act as, in remote mode a (new) login to that server.
 */
export function failureMessage(err: unknown, session: Session | undefined): string {
  const unauthorized = (err as { data?: { code?: string } }).data?.code === "UNAUTHORIZED";
  if (unauthorized && session?.mode === "local" && !session.actingAs) {
    return "No user to act as: create an account first (`prite users add NAME`), or pass --user NAME.";
  }
  if (unauthorized && session?.mode === "remote") {
    const login = `\`prite login --server ${session.server}\``;
    return session.signedIn
      ? `Please sign in to continue: your login to ${session.server} has expired or was signed out. Log in again with ${login}.`
      : `Please sign in to continue: you are not logged in to ${session.server}. Log in with ${login} first.`;
  }
  return describeError(err);
}

/**
 * Wraps a command action: opens the session (local or remote), prints errors to stderr in the product's
 * words (stack only with --verbose), and sets the exit code (0 success, 1 failure, 2 usage error).
 */
export function action<A extends unknown[]>(
  fn: (ctx: ActionContext, ...args: A) => Promise<void>,
  {
    needsSession = true,
    validate,
  }: {
    needsSession?: boolean;
    /**
     * Checks the arguments (as the action receives them) and the global options before the session is
     * opened, so a usage error never waits for a database.
     */
    validate?: (args: A, opts: GlobalOptions) => void;
  } = {},
) {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const opts = cmd.optsWithGlobals<GlobalOptions>();
    let session: Session | undefined;
    try {
      validate?.(args.slice(0, -1) as A, opts);
      if (needsSession) session = await openSession(opts);
      const ctx: ActionContext = {
        session: session!,
        opts,
        out: (human, json) => {
          if (opts.json) printJson(json ?? human);
          else process.stdout.write(`${human}\n`);
        },
      };
      await fn(ctx, ...(args.slice(0, -1) as A));
    } catch (err) {
      const message = failureMessage(err, session);
      if (opts.json) process.stderr.write(`${JSON.stringify({ error: message })}\n`);
      else process.stderr.write(`Error: ${message}\n`);
      if (opts.verbose && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
      process.exitCode = (err as { exitCode?: number }).exitCode ?? 1;
    } finally {
      await session?.close().catch(() => {});
    }
  };
}
