import type { Command } from "commander";
import { DIRECTORS_ONLY } from "../../src/server/features/programs/program-access";
import type { ProgramMembersJson } from "../../src/server/features/programs/program-members.service";
import type { ProgramJson } from "../../src/server/features/programs/programs.service";
import { action } from "../command";
import { CliError, table } from "../output";
import type { Api } from "../runtime";

/** Where the printed join link points: PUBLIC_URL's link, else the server spoken to, else the path. */
export function joinLinkOf(program: ProgramJson, server?: string): string | null {
  if (program.joinUrl) return program.joinUrl;
  if (!program.joinPath) return null;
  return server ? `${server}${program.joinPath}` : program.joinPath;
}

export const NO_PROGRAM =
  "You are not a member of a program: create one with `prite programs create NAME` or join one with `prite programs join CODE`.";

/** The acting user's program, or the product's words for having none. */
export async function requireProgram(api: Api): Promise<ProgramJson> {
  const mine = await api.programs.mine.query();
  if (!mine) throw new CliError(NO_PROGRAM);
  return mine;
}

function describeProgram(program: ProgramJson, server?: string): string[] {
  const where = program.institution ? ` (${program.institution})` : "";
  const lines = [`${program.name}${where}: you are a ${program.role}.`];
  if (program.code) {
    lines.push(`Join code: ${program.code}`, `Join link: ${joinLinkOf(program, server)}`);
  }
  return lines;
}

const withLink = (program: ProgramJson, server?: string) => ({
  ...program,
  joinLink: joinLinkOf(program, server),
});

/** `prite programs create NAME`: the acting user becomes its first director. */
export async function createProgramCommand(
  api: Api,
  name: string,
  opts: { institution?: string },
  server?: string,
) {
  const program = await api.programs.create.mutate({ name, institution: opts.institution ?? "" });
  return {
    human: [
      `Created ${program.name}${program.institution ? ` (${program.institution})` : ""}; you are its director.`,
      `Join code: ${program.code}`,
      `Join link: ${joinLinkOf(program, server)}`,
      "Residents join with `prite programs join CODE` or by opening the link.",
    ].join("\n"),
    json: withLink(program, server),
  };
}

export async function joinProgramCommand(api: Api, code: string) {
  const program = await api.programs.join.mutate({ code });
  return { human: describeProgram(program).join("\n"), json: program };
}

export function formatMembers(program: ProgramJson, list: ProgramMembersJson): string {
  const head = `${program.name}: ${program.memberCount} member${program.memberCount === 1 ? "" : "s"}, ${program.directorCount} director${program.directorCount === 1 ? "" : "s"}.`;
  const rows = table(
    list.members.map((m) => ({
      username: m.username,
      name: m.displayName,
      pgy: m.pgyLabel,
      role: m.role,
      joined: m.joinedAt ? m.joinedAt.slice(0, 10) : "",
    })),
    ["username", "name", "pgy", "role", "joined"],
  );
  if (list.roster === "full") return `${head}\n${rows}`;
  const classes = list.classes.map((c) => `${c.pgyLabel}: ${c.residents}`).join(", ");
  return `${head}\nDirectors:\n${rows}\nResidents by class: ${classes || "none yet"}.`;
}

export async function membersCommand(api: Api) {
  const program = await requireProgram(api);
  const list = await api.programs.members.query({ id: program.id });
  return { human: formatMembers(program, list), json: { program, ...list } };
}

/** A member of the director's program by username (any case), for promote, demote and remove. */
async function memberByUsername(api: Api, username: string) {
  const program = await requireProgram(api);
  if (program.role !== "director") throw new CliError(DIRECTORS_ONLY);
  const { members } = await api.programs.members.query({ id: program.id });
  const wanted = username.trim().toLowerCase();
  const member = members.find((m) => m.username.toLowerCase() === wanted);
  if (!member) throw new CliError(`${username} is not a member of ${program.name}.`);
  return { program, member };
}

export async function setRoleCommand(api: Api, username: string, role: "director" | "resident") {
  const { program, member } = await memberByUsername(api, username);
  const result = await api.programs.setRole.mutate({
    id: program.id,
    userId: member.userId,
    role,
  });
  const human = result.changed
    ? `${member.username} is now a ${role} of ${program.name}.`
    : `${member.username} is already a ${role} of ${program.name}.`;
  return { human, json: { ...result, username: member.username } };
}

export async function removeCommand(api: Api, username: string) {
  const { program, member } = await memberByUsername(api, username);
  const result = await api.programs.removeMember.mutate({ id: program.id, userId: member.userId });
  return {
    human: `Removed ${member.username} from ${program.name}.`,
    json: { ...result, username: member.username },
  };
}

export async function leaveCommand(api: Api) {
  const program = await requireProgram(api);
  const result = await api.programs.leave.mutate({ id: program.id });
  const human = result.programDeleted
    ? `You left ${program.name}. You were its last member, so the program was deleted.`
    : `You left ${program.name}.`;
  return { human, json: { ...result, id: program.id, name: program.name } };
}

export async function renewCodeCommand(api: Api, server?: string) {
  const program = await requireProgram(api);
  if (program.role !== "director") throw new CliError(DIRECTORS_ONLY);
  const renewed = await api.programs.renewCode.mutate({ id: program.id });
  return {
    human: [
      `New join code: ${renewed.code} (the old code and link no longer work).`,
      `Join link: ${joinLinkOf(renewed, server)}`,
    ].join("\n"),
    json: withLink(renewed, server),
  };
}

/**
 * `prite programs …`. Returns the group so that other files add their subcommands to it
 * (`registerProgramCommands(program)` then e.g. `registerAssignCommand(programs)`).
 */
export function registerProgramCommands(program: Command): Command {
  const programs = program
    .command("programs")
    .description("Residency programs: create or join one, its members and roles, the join code")
    .addHelpText(
      "after",
      `
Examples:
  $ prite programs create "Riverside Psychiatry" --institution "Riverside University"
  $ prite programs join K7PQ2MZX
  $ prite programs members --json
  $ prite programs promote alice`,
    );

  programs
    .command("create")
    .description("Create a program; you become its first director (prints the join code and link)")
    .argument("<name>", "the program's name")
    .option("--institution <name>", "the institution (hospital or university)")
    .action(
      action(async (ctx, name: string, opts: { institution?: string }) => {
        const { human, json } = await createProgramCommand(
          ctx.session.api,
          name,
          opts,
          ctx.session.server,
        );
        ctx.out(human, json);
      }),
    );

  programs
    .command("join")
    .description("Join a program as a resident with its join code")
    .argument("<code>", "the 8-character join code")
    .action(
      action(async (ctx, code: string) => {
        const { human, json } = await joinProgramCommand(ctx.session.api, code);
        ctx.out(human, json);
      }),
    );

  programs
    .command("members")
    .description("Your program's members by PGY (residents see the directors and class sizes)")
    .action(
      action(async (ctx) => {
        const { human, json } = await membersCommand(ctx.session.api);
        ctx.out(human, json);
      }),
    );

  for (const [name, role, text] of [
    ["promote", "director", "Make a member a director (directors only)"],
    ["demote", "resident", "Make a director a resident again (directors only)"],
  ] as const) {
    programs
      .command(name)
      .description(text)
      .argument("<username>", "the member's username")
      .action(
        action(async (ctx, username: string) => {
          const { human, json } = await setRoleCommand(ctx.session.api, username, role);
          ctx.out(human, json);
        }),
      );
  }

  programs
    .command("remove")
    .description("Remove a member from your program; their access ends at once (directors only)")
    .argument("<username>", "the member's username")
    .action(
      action(async (ctx, username: string) => {
        const { human, json } = await removeCommand(ctx.session.api, username);
        ctx.out(human, json);
      }),
    );

  programs
    .command("leave")
    .description("Leave your program (its last member leaving deletes it)")
    .action(
      action(async (ctx) => {
        const { human, json } = await leaveCommand(ctx.session.api);
        ctx.out(human, json);
      }),
    );

  programs
    .command("renew-code")
    .description("Give the program a new join code; the old code and link stop working")
    .action(
      action(async (ctx) => {
        const { human, json } = await renewCodeCommand(ctx.session.api, ctx.session.server);
        ctx.out(human, json);
      }),
    );

  return programs;
}
