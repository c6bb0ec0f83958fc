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
 * Wraps a command action: opens the session (local or remote), prints errors to stderr in the product's
 * words (stack only with --verbose), and sets the exit code (0 success, 1 failure).
 */
export function action<A extends unknown[]>(
  fn: (ctx: ActionContext, ...args: A) => Promise<void>,
  {
    needsSession = true,
    validate,
  }: {
    needsSession?: boolean;
    /** Checks the arguments before the session is opened, so a usage error never waits for a database. */
    validate?: (...args: A) => void;
  } = {},
) {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const opts = cmd.optsWithGlobals<GlobalOptions>();
    let session: Session | undefined;
    try {
      validate?.(...(args.slice(0, -1) as A));
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
      const unauthenticatedLocal =
        session?.mode === "local" &&
        !session.actingAs &&
        (err as { data?: { code?: string } }).data?.code === "UNAUTHORIZED";
      const message = unauthenticatedLocal
        ? "No user to act as: register an account first, or pass --user NAME."
        : describeError(err);
      if (opts.json) process.stderr.write(`${JSON.stringify({ error: message })}\n`);
      else process.stderr.write(`Error: ${message}\n`);
      if (opts.verbose && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
      process.exitCode = (err as { exitCode?: number }).exitCode ?? 1;
    } finally {
      await session?.close().catch(() => {});
    }
  };
}
