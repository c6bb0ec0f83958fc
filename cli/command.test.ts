import { Command } from "commander";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../src/server/trpc/router";
import { createContextInner } from "../src/server/trpc/context";
import { createHarness, type Harness } from "../src/server/test/harness";
import { action, failureMessage, type ActionContext } from "./command";
import { CliError } from "./output";
import { apiFromCaller, type Session } from "./runtime";
import { captureRun } from "./test-output";

/** A one-command program with the global flags, running `fn` through the action wrapper. */
function program(
  fn: (ctx: ActionContext, value: string) => Promise<void>,
  validate?: (args: [string]) => void,
) {
  const p = new Command().exitOverride().option("--json").option("--verbose");
  p.command("run")
    .argument("<value>")
    .action(action(fn, { needsSession: false, ...(validate ? { validate } : {}) }));
  return (...args: string[]) =>
    captureRun(() => p.parseAsync(["node", "prite", ...args]).then(() => undefined));
}

describe("the action wrapper", () => {
  it("prints a success in words, or as JSON with --json; exit 0", async () => {
    const run = program(async (ctx, value) => ctx.out(`Got ${value}.`, { value }));
    expect(await run("run", "x")).toEqual({ stdout: "Got x.\n", stderr: "", code: 0 });
    const json = await run("--json", "run", "x");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ value: "x" });
  });

  it("a failure is one line on stderr in the product's words, exit 1, no stack trace", async () => {
    const run = program(async () => {
      throw new CliError("Cannot read bank.csv: no such file, or no permission.");
    });
    const r = await run("run", "x");
    expect(r).toEqual({
      stdout: "",
      stderr: "Error: Cannot read bank.csv: no such file, or no permission.\n",
      code: 1,
    });
    const json = await run("run", "x", "--json");
    expect(json.code).toBe(1);
    expect(json.stdout).toBe("");
    expect(JSON.parse(json.stderr)).toEqual({
      error: "Cannot read bank.csv: no such file, or no permission.",
    });
  });

  it("a usage error exits 2", async () => {
    const run = program(async () => {
      throw new CliError("--part must be 1 or 2", 2);
    });
    expect(await run("run", "x")).toMatchObject({
      code: 2,
      stderr: "Error: --part must be 1 or 2\n",
    });
  });

  it("validate refuses before the action runs", async () => {
    let ran = false;
    const run = program(
      async () => {
        ran = true;
      },
      ([value]) => {
        if (value !== "ok") throw new CliError(`'${value}' is not ok`, 2);
      },
    );
    expect(await run("run", "bad")).toMatchObject({ code: 2, stderr: "Error: 'bad' is not ok\n" });
    expect(ran).toBe(false);
    expect(await run("run", "ok")).toMatchObject({ code: 0 });
    expect(ran).toBe(true);
  });

  it("an unexpected error shows its stack only with --verbose", async () => {
    const run = program(async () => {
      throw new Error("something broke");
    });
    const quiet = await run("run", "x");
    expect(quiet).toMatchObject({ code: 1, stderr: "Error: something broke\n" });
    const verbose = await run("--verbose", "run", "x");
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toMatch(/^Error: something broke\nError: something broke\n\s+at /);
  });
});

describe("failureMessage: what to do when the server wants a signed-in user", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const unauthorized = Object.assign(new Error("Please sign in to continue"), {
    data: { code: "UNAUTHORIZED" },
  });
  const remote = (signedIn: boolean): Session => ({
    api: null as never,
    mode: "remote",
    server: "http://prite.example.org",
    signedIn,
    actingAs: signedIn ? "chief" : null,
    close: async () => {},
  });

  it("remote with a stored login: it expired or was signed out, log in again", () => {
    expect(failureMessage(unauthorized, remote(true))).toBe(
      "Please sign in to continue: your login to http://prite.example.org has expired or was signed out. Log in again with `prite login --server http://prite.example.org`.",
    );
  });

  it("remote without a login for that server: log in first", () => {
    expect(failureMessage(unauthorized, remote(false))).toBe(
      "Please sign in to continue: you are not logged in to http://prite.example.org. Log in with `prite login --server http://prite.example.org` first.",
    );
  });

  it("local mode with nobody to act as: create an account or name one", async () => {
    const caller = createCaller(createContextInner({ db: h.db.db, user: null, session: null }));
    const err = await apiFromCaller(caller)
      .auth.me.query()
      .catch((e: unknown) => e);
    const local: Session = {
      api: apiFromCaller(caller),
      mode: "local",
      actingAs: null,
      close: async () => {},
    };
    expect(failureMessage(err, local)).toBe(
      "No user to act as: create an account first (`prite users add NAME`), or pass --user NAME.",
    );
  });

  it("other errors keep the server's words", () => {
    expect(failureMessage(new TRPCError({ code: "FORBIDDEN", message: "No" }), remote(true))).toBe(
      "No",
    );
  });
});
