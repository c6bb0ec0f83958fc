import type { Command } from "commander";
import { AUTH_MESSAGES } from "../../src/core/schemas";
import { trimEndChars } from "../../src/core/text";
import type { UserJson } from "../../src/server/features/users/user-json";
import { action } from "../command";
import { clearConfig, configPath, readConfig, writeConfig } from "../config";
import { usage } from "../options";
import { CliError } from "../output";
import { readSecret } from "../prompt";
import { openRemote, type Session } from "../runtime";

interface LoginOptions {
  username?: string;
  passwordStdin?: boolean;
}

export interface LoginResult {
  server: string;
  user: UserJson;
  /** Where the token was stored (0600 in a 0700 folder). */
  config: string;
}

/**
 * `prite login`: signs in to `server` with the same procedure as the Sign In page and stores the token,
 * the server and the username in the user's config folder; later commands speak to that server.
 */
export async function login(
  server: string,
  username: string,
  password: string,
): Promise<LoginResult> {
  if (!username.trim() || !password) throw usage(AUTH_MESSAGES.LOGIN_REQUIRED);
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw usage(`--server must be an address like http://localhost:3000, not '${server}'.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw usage(`--server must be an address like http://localhost:3000, not '${server}'.`);
  const base = trimEndChars(server, "/");
  const { api } = openRemote(base, undefined);
  const result = await api.auth.login.mutate({ username, password });
  if (!result.token) throw new CliError("The server did not return a token.");
  writeConfig({ server: base, token: result.token, username: result.user.username });
  return { server: base, user: result.user, config: configPath() };
}

/**
 * `prite logout`: ends the session on the server (when it can be reached) and forgets the stored login
 * either way. Returns the server that was signed out of, or null when there was no login.
 */
export async function logout(): Promise<{ server: string | null; serverSignedOut: boolean }> {
  const config = readConfig();
  let serverSignedOut = false;
  if (config.server && config.token) {
    serverSignedOut = await openRemote(config.server, config.token)
      .api.auth.logout.mutate()
      .then(() => true)
      .catch(() => false);
  }
  clearConfig();
  return { server: config.server ?? null, serverSignedOut };
}

/** `prite whoami`: the account the commands act as, and in which mode. */
export async function whoami(session: Session) {
  const user = await session.api.auth.me.query();
  return {
    mode: session.mode,
    ...(session.server ? { server: session.server } : {}),
    user,
  };
}

export function registerAuthCommands(program: Command): void {
  program
    .command("login")
    .description(
      "Sign in to a running PRITE Study server (--server URL, required); later commands use it",
    )
    .option("--username <name>", "your username (asked when omitted)")
    .option("--password-stdin", "read the password from standard input")
    .addHelpText(
      "after",
      `
Examples:
  $ prite login --server http://localhost:3000 --username chief
  $ printf '%s\\n' "$PASSWORD" | prite login --server http://localhost:3000 --username chief --password-stdin`,
    )
    .action(
      action(
        async (ctx, cmdOpts: LoginOptions) => {
          const username = cmdOpts.username ?? (await readSecret("Username: ", false));
          const password = await readSecret("Password: ", true, cmdOpts.passwordStdin);
          const result = await login(ctx.opts.server!, username, password);
          ctx.out(`Signed in to ${result.server} as ${result.user.username}.`, result);
        },
        {
          needsSession: false,
          // --server is the global option (the program reads it wherever it is written).
          validate: ([cmdOpts], globals) => {
            if (!globals.server)
              throw usage("Name the server to sign in to: prite login --server URL.");
            if (cmdOpts.username === undefined && (cmdOpts.passwordStdin || !process.stdin.isTTY))
              throw usage("--username is needed when the password comes from standard input.");
          },
        },
      ),
    );

  program
    .command("logout")
    .description("Sign out of the server and forget the stored token")
    .addHelpText("after", "\nExample:\n  $ prite logout")
    .action(
      action(
        async (ctx) => {
          const result = await logout();
          const human =
            result.server === null
              ? "Not logged in: nothing to forget."
              : result.serverSignedOut
                ? `Signed out of ${result.server}.`
                : `Forgot the login to ${result.server} (the server could not be told: it was not reachable or the login had already ended).`;
          ctx.out(human, { success: true, ...result });
        },
        { needsSession: false },
      ),
    );

  program
    .command("whoami")
    .description("Show who the commands act as, and where")
    .addHelpText("after", "\nExamples:\n  $ prite whoami\n  $ prite --user chief whoami --json")
    .action(
      action(async (ctx) => {
        const result = await whoami(ctx.session);
        const where = result.server ? `remote, ${result.server}` : result.mode;
        ctx.out(
          `${result.user.username} (${where}${result.user.isAdmin ? ", admin" : ""})`,
          result,
        );
      }),
    );
}
