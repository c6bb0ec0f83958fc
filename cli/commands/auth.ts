import type { Command } from "commander";
import { action } from "../command";
import { clearConfig, configPath, readConfig, writeConfig } from "../config";
import { CliError } from "../output";
import { openRemote } from "../runtime";
import { readSecret } from "../prompt";

export function registerAuthCommands(program: Command): void {
  program
    .command("login")
    .description("Sign in to a running PRITE Study server; later commands use it")
    .requiredOption("--server <url>", "server address, e.g. https://prite.example.org")
    .option("--username <name>", "your username (asked when omitted)")
    .option("--password-stdin", "read the password from standard input")
    .addHelpText(
      "after",
      "\nExample:\n  $ prite login --server http://localhost:3000 --username chief",
    )
    .action(
      action(
        async (ctx, cmdOpts: { server: string; username?: string; passwordStdin?: boolean }) => {
          const username = cmdOpts.username ?? (await readSecret("Username: ", false));
          const password = await readSecret("Password: ", true, cmdOpts.passwordStdin);
          if (!username || !password) throw new CliError("Please enter all fields", 2);
          const { api } = openRemote(cmdOpts.server, undefined);
          const result = await api.auth.login.mutate({ username, password });
          if (!result.token) throw new CliError("The server did not return a token.");
          writeConfig({
            server: cmdOpts.server,
            token: result.token,
            username: result.user.username,
          });
          ctx.out(`Signed in to ${cmdOpts.server} as ${result.user.username}.`, {
            server: cmdOpts.server,
            user: result.user,
            config: configPath(),
          });
        },
        { needsSession: false },
      ),
    );

  program
    .command("logout")
    .description("Sign out of the server and forget the stored token")
    .addHelpText("after", "\nExample:\n  $ prite logout")
    .action(
      action(
        async (ctx) => {
          const config = readConfig();
          if (config.server && config.token) {
            await openRemote(config.server, config.token)
              .api.auth.logout.mutate()
              .catch(() => {});
          }
          clearConfig();
          ctx.out("Signed out.", { success: true });
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
        const user = await ctx.session.api.auth.me.query();
        ctx.out(`${user.username} (${ctx.session.mode}${user.isAdmin ? ", admin" : ""})`, {
          mode: ctx.session.mode,
          user,
        });
      }),
    );
}
