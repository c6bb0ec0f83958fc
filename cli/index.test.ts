import { describe, expect, it } from "vitest";
import { main, wantsJson } from "./index";
import { captureRun } from "./test-output";

/** `prite …` in this process; none of these reach a database. */
const prite = (...args: string[]) => captureRun(() => main(["node", "prite", ...args]));

describe("prite exit codes: commander's own outcomes", () => {
  it("an explicit --help or `prite help` succeeds (0) with the help on stdout", async () => {
    for (const args of [["--help"], ["users", "--help"], ["help"], ["help", "users"]]) {
      const r = await prite(...args);
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout).toContain("Usage: prite");
      expect(r.stderr).toBe("");
    }
  });

  it.each([
    [
      [],
      "login, logout, whoami, db, import, answer-keys, export, fsrs, study, users, seed, exams, audit, reports, programs",
      "prite",
    ],
    [["exams"], "create, results, list", "prite exams"],
    [
      ["programs"],
      "create, join, members, promote, demote, remove, leave, renew-code, assign, assignments, close, extend, reserve, release, report",
      "prite programs",
    ],
    [["fsrs"], "optimize", "prite fsrs"],
    [["reports"], "list, resolve, add, takedown", "prite reports"],
    [["study"], "plan", "prite study"],
    [["users"], "add, list, reset-link, promote, demote", "prite users"],
    [["answer-keys"], "import, list, apply", "prite answer-keys"],
    [["db"], "migrate, backup, restore", "prite db"],
  ])("a group without its subcommand (%j) is a usage error (2)", async (args, choices, name) => {
    const r = await prite(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    // The help goes to stderr, ending with what is missing.
    expect(r.stderr).toContain(`Usage: ${name}`);
    expect(r.stderr.trimEnd().split("\n").at(-1)).toBe(
      `Choose a command: ${choices} (see \`${name} --help\`).`,
    );

    const json = await prite("--json", ...args);
    expect(json.code).toBe(2);
    expect(json.stdout).toBe("");
    expect(JSON.parse(json.stderr)).toEqual({
      error: `Choose a command: ${choices} (see \`${name} --help\`).`,
    });
  });

  it.each([
    [["import", "--bogus"], "unknown option '--bogus'"],
    [["users", "promote"], "missing required argument 'username'"],
    [["no-such-command"], "unknown command 'no-such-command'"],
    [["answer-keys", "apply", "--part", "1"], "required option '--year <year>' not specified"],
  ])(
    "commander's usage error %j exits 2; with --json it is one JSON line",
    async (args, message) => {
      const human = await prite(...args);
      expect(human.code).toBe(2);
      expect(human.stderr).toContain(`error: ${message}`);
      // The command's help follows, so the user sees the right usage.
      expect(human.stderr).toContain("Usage: prite");

      for (const json of [await prite("--json", ...args), await prite(...args, "--json")]) {
        expect(json.code).toBe(2);
        expect(json.stdout).toBe("");
        expect(json.stderr.trimEnd().split("\n")).toHaveLength(1);
        expect(JSON.parse(json.stderr)).toEqual({ error: message });
      }
    },
  );

  it("a bad flag value found by the command itself is a usage error too, before any database", async () => {
    const r = await prite("--json", "import", "bank.csv", "--on-duplicate", "merge");
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toEqual({
      error: "--on-duplicate must be skip, keep-both, newer or metadata",
    });
    const resolve = await prite("reports", "resolve", "some-id", "--fix", "--dismiss");
    expect([resolve.code, resolve.stderr]).toEqual([
      2,
      "Error: Give one of --fix, --dismiss or --answer.\n",
    ]);
    const seed = await prite("seed");
    expect(seed.code).toBe(2);
    expect(seed.stderr).toBe("Error: Choose one of --demo or --synthetic.\n");
  });

  it("--json counts only before a `--` that ends the options", () => {
    expect(wantsJson(["users", "--json"])).toBe(true);
    expect(wantsJson(["import", "--", "--json"])).toBe(false);
    expect(wantsJson(["users", "list"])).toBe(false);
  });
});
