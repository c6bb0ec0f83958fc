import type { Command } from "commander";
import type { AdminUserJson } from "../../src/server/features/admin/admin.service";
import { action } from "../command";
import { table } from "../output";
import type { Api } from "../runtime";

export async function listUsers(api: Api): Promise<AdminUserJson[]> {
  return api.admin.users.query();
}

export async function setRole(api: Api, username: string, isAdmin: boolean) {
  return api.admin.setRole.mutate({ username, isAdmin });
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
    .description("Accounts and admin rights (admins only)")
    .addHelpText(
      "after",
      `
Examples:
  $ prite users list
  $ prite users promote alice
  $ prite users demote alice`,
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
