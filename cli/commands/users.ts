import type { Command } from "commander";
import { PGY_LEVEL_VALUES } from "../../src/core/constants";
import type { AdminUserJson } from "../../src/server/features/admin/admin.service";
import { action } from "../command";
import { table } from "../output";
import { readSecret } from "../prompt";
import type { Api } from "../runtime";

export async function listUsers(api: Api): Promise<AdminUserJson[]> {
  return api.admin.users.query();
}

export async function setRole(api: Api, username: string, isAdmin: boolean) {
  return api.admin.setRole.mutate({ username, isAdmin });
}

/** `prite users reset-link`: a one-time password reset link (24 h) an admin hands over (issue 33). */
export async function resetLink(api: Api, username: string, server?: string) {
  const link = await api.admin.resetLink.mutate({ username });
  // Without PUBLIC_URL the server knows no address of its own: the CLI's server, or the path alone.
  return { ...link, url: link.url ?? (server ? `${server}${link.path}` : null) };
}

export interface AddUserInput {
  username: string;
  email: string;
  pgyLevel: string;
  password: string;
  /** Asked on a terminal; the server answers "Passwords do not match" when it differs. */
  confirmPassword?: string;
}

/**
 * `prite users add`: creates an account with the Sign Up page's procedure and rules (the first account
 * of a new installation becomes its admin). The session the sign-up opens is not kept: the CLI acts as
 * the account through --user (local) or `prite login` (remote).
 */
export async function addUser(api: Api, input: AddUserInput) {
  const { user } = await api.auth.register.mutate(input);
  return user;
}

export function formatUsers(list: AdminUserJson[]): string {
  return table(
    list.map((u) => ({
      username: u.username,
      admin: u.isAdmin ? "yes" : "",
      pgy: u.pgyLevel,
      questions: u.questionsAdded,
      created: u.createdAt.slice(0, 10),
      "last login": u.lastLogin?.slice(0, 10) ?? "never",
    })),
    ["username", "admin", "pgy", "questions", "created", "last login"],
  );
}

export function registerUserCommands(program: Command): void {
  const users = program
    .command("users")
    .description("Accounts: create one, list them, admin rights (list and roles: admins only)")
    .addHelpText(
      "after",
      `
Examples:
  $ prite users add chief --email chief@example.org --pgy 3
  $ prite users list
  $ prite users promote alice
  $ prite users demote alice
  $ prite users reset-link alice`,
    );

  users
    .command("add")
    .description(
      "Create an account, as the Sign Up page does (the first account becomes the admin)",
    )
    .argument("<username>", "the new account's username")
    .requiredOption("--email <email>", "its email address")
    .requiredOption("--pgy <level>", `PGY level: ${PGY_LEVEL_VALUES.join(", ")}`)
    .option("--password-stdin", "read the password from standard input (else it is asked for)")
    .addHelpText(
      "after",
      `
Examples:
  $ prite users add chief --email chief@example.org --pgy 3
  $ printf '%s\n' "$PASSWORD" | prite users add alice --email alice@example.org --pgy 1 --password-stdin`,
    )
    .action(
      action(
        async (
          ctx,
          username: string,
          opts: { email: string; pgy: string; passwordStdin?: boolean },
        ) => {
          const fromStdin = Boolean(opts.passwordStdin) || !process.stdin.isTTY;
          const password = await readSecret("Password: ", true, fromStdin);
          const confirmPassword = fromStdin
            ? undefined
            : await readSecret("Confirm password: ", true);
          const user = await addUser(ctx.session.api, {
            username,
            email: opts.email,
            pgyLevel: opts.pgy,
            password,
            ...(confirmPassword === undefined ? {} : { confirmPassword }),
          });
          ctx.out(
            `Created ${user.username}${user.isAdmin ? " (admin: the first account)" : ""}.`,
            user,
          );
        },
      ),
    );

  users
    .command("list")
    .description("List every account with its role and the questions it added")
    .addHelpText("after", "\nExample:\n  $ prite users list --json")
    .action(
      action(async (ctx) => {
        const list = await listUsers(ctx.session.api);
        ctx.out(formatUsers(list), list);
      }),
    );

  users
    .command("reset-link")
    .description("Make a one-time password reset link for a user, valid 24 hours (admins only)")
    .argument("<username>", "the account")
    .addHelpText(
      "after",
      "\nThe link opens the Reset Password page; using it signs the account out everywhere.\nExample:\n  $ prite users reset-link alice --json",
    )
    .action(
      action(async (ctx, username: string) => {
        const link = await resetLink(ctx.session.api, username, ctx.session.server);
        const shown =
          link.url ?? `${link.path} (on the server's address; set PUBLIC_URL to print it whole)`;
        ctx.out(
          `Password reset link for ${link.username}, valid until ${link.expiresAt}:\n${shown}`,
          link,
        );
      }),
    );

  for (const [name, isAdmin] of [
    ["promote", true],
    ["demote", false],
  ] as const) {
    users
      .command(name)
      .description(isAdmin ? "Make a user an admin" : "Remove a user's admin rights")
      .argument("<username>", "the account")
      .addHelpText("after", `\nExample:\n  $ prite users ${name} alice`)
      .action(
        action(async (ctx, username: string) => {
          const { user, changed } = await setRole(ctx.session.api, username, isAdmin);
          const role = isAdmin ? "an admin" : "a regular user";
          ctx.out(
            changed ? `${user.username} is now ${role}.` : `${user.username} is already ${role}.`,
            { user, changed },
          );
        }),
      );
  }
}
