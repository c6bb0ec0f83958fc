import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestUser } from "../src/server/test/harness";
import { prite as run, REAL, ROOT, type PriteEnv } from "./test-bin";

/**
 * One real run of every command as a user types it: the built bin in a subprocess, on a fresh embedded
 * data folder (and, for login/whoami/logout, against a listening server started here).
 */
const MMLU = path.join(REAL, "mmlu_clinical_knowledge_dev.csv");
const PASSWORD = "correct horse battery";
const MIGRATIONS = (
  JSON.parse(fs.readFileSync(path.join(ROOT, "drizzle/meta/_journal.json"), "utf8")) as {
    entries: unknown[];
  }
).entries.length;
const YEAR = new Date().getFullYear();

let tmp: string;
let env: PriteEnv;
const prite = (args: string[], input?: string) => run(args, env, { input });

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-smoke-"));
  env = { dataDir: path.join(tmp, "data"), configHome: path.join(tmp, "config"), cwd: tmp };
  // Builds dist/cli if the sources changed, before the timed tests.
  const first = await prite(["--help"]);
  if (first.code !== 0) throw new Error(`prite --help failed:\n${first.stderr}`);
}, 180_000);
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const COMMANDS = [
  ["login"],
  ["logout"],
  ["whoami"],
  ["import"],
  ["answer-keys"],
  ["answer-keys", "import"],
  ["answer-keys", "list"],
  ["answer-keys", "apply"],
  ["export"],
  ["users"],
  ["users", "add"],
  ["users", "list"],
  ["users", "promote"],
  ["users", "demote"],
  ["users", "reset-link"],
  ["db"],
  ["db", "migrate"],
  ["seed"],
];

// Every run is a real process opening a real database, on a machine that may be busy: generous limits.
describe("prite --help (subprocess)", { timeout: 120_000 }, () => {
  it("lists every command with examples, exit 0", async () => {
    const r = await prite(["--help"]);
    expect(r.code).toBe(0);
    for (const c of ["import", "answer-keys", "export", "users", "seed", "db", "login"])
      expect(r.stdout).toContain(c);
    expect(r.stdout).toContain("Examples:");
  });

  it.each(COMMANDS.map((c) => [c.join(" ")]))(
    "prite %s --help has an example, exit 0",
    async (cmd) => {
      const r = await prite([...cmd.split(" "), "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Example/);
    },
  );

  it("usage errors exit 2 without a stack trace, and as one JSON line with --json", async () => {
    for (const args of [
      [],
      ["users"],
      ["import"],
      ["no-such-command"],
      ["import", MMLU, "--on-duplicate", "merge"],
      ["answer-keys", "apply", "--part", "1"],
      ["seed", "--demo", "--year", "1999"],
      ["login", "--username", "chief"],
    ]) {
      const r = await prite(args);
      expect(r.code, args.join(" ")).toBe(2);
      // eslint-disable-next-line regexp/no-super-linear-move -- the CLI's own short error output
      expect(r.stderr).not.toMatch(/\n\s+at /);
      const json = await prite([...args, "--json"]);
      expect(json.code, args.join(" ")).toBe(2);
      expect(Object.keys(JSON.parse(json.stderr) as object)).toEqual(["error"]);
    }
  });
});

describe("prite in local mode (subprocess, fresh data folder)", { timeout: 120_000 }, () => {
  it("db migrate creates the database and says what it applied", async () => {
    const r = await prite(["db", "migrate", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      success: true,
      database: "pglite",
      applied: MIGRATIONS,
      total: MIGRATIONS,
    });
    const again = await prite(["db", "migrate"]);
    expect(again.stdout).toBe(
      `Database is up to date (pglite, ${MIGRATIONS} migrations): no pending migrations.\n`,
    );
  });

  it("with no account yet, a command that needs one says how to make one", async () => {
    const r = await prite(["seed", "--demo"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "Error: No user to act as: create an account first (`prite users add NAME`), or pass --user NAME.\n",
    );
  });

  it("users add (password on stdin): the first account is the admin; whoami acts as it", async () => {
    const r = await prite(
      ["users", "add", "chief", "--email", "chief@example.org", "--pgy", "3", "--password-stdin"],
      `${PASSWORD}\n`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("Created chief (admin: the first account).\n");
    const who = await prite(["whoami"]);
    expect(who.stdout).toBe("chief (local, admin)\n");
    const taken = await prite(
      ["users", "add", "Chief", "--email", "x@example.org", "--pgy", "3", "--password-stdin"],
      `${PASSWORD}\n`,
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toBe("Error: Username is already taken\n");
  });

  it("seed --demo adds the 12 demo questions once", async () => {
    const r = await prite(["seed", "--demo"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`Added 12 demo questions (public, ${YEAR}) as chief.\n`);
    const again = await prite(["seed", "--demo", "--json"]);
    expect(JSON.parse(again.stdout)).toEqual({ imported: 0, alreadyPresent: 12, year: YEAR });
  });

  it("users promote / demote / list", async () => {
    const add = await prite(
      ["users", "add", "alice", "--email", "alice@example.org", "--pgy", "1", "--password-stdin"],
      `${PASSWORD}\n`,
    );
    expect(add.stdout).toBe("Created alice.\n");
    expect((await prite(["users", "promote", "alice"])).stdout).toBe("alice is now an admin.\n");
    expect((await prite(["users", "promote", "alice"])).stdout).toBe(
      "alice is already an admin.\n",
    );
    const list = await prite(["users", "list", "--json"]);
    expect(
      (
        JSON.parse(list.stdout) as { username: string; isAdmin: boolean; questionsAdded: number }[]
      ).map((u) => [u.username, u.isAdmin, u.questionsAdded]),
    ).toEqual([
      ["chief", true, 12],
      ["alice", true, 0],
    ]);
    expect((await prite(["users", "demote", "alice"])).stdout).toBe(
      "alice is now a regular user.\n",
    );
    const table = await prite(["users", "list"]);
    expect(table.stdout).toMatch(/^username\s+admin\s+pgy\s+questions/);
    expect(table.stdout).toMatch(/\nalice\s+1\s+0\s/);
  });

  it("users reset-link prints a one-time link (admins only), --json too", async () => {
    const r = await prite(["users", "reset-link", "alice"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^Password reset link for alice, valid until \S+:\n\/reset-password\?token=[\w-]{43} \(on the server's address; set PUBLIC_URL to print it whole\)\n$/,
    );
    const json = await prite(["users", "reset-link", "alice", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ username: "alice", url: null });
    const refused = await prite(["--user", "alice", "users", "reset-link", "chief"]);
    expect([refused.code, refused.stderr]).toEqual([
      1,
      "Error: You do not have permission to access this page.\n",
    ]);
  });

  it("import, re-import, answer keys, export, refusals (as alice)", async () => {
    const imported = await prite(["--user", "alice", "import", MMLU, "--year", "2024", "--json"]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ total: 5, imported: 5 });
    // Piped: no progress bar on stderr.
    expect(imported.stderr).toBe("");

    const again = await prite(["--user", "alice", "import", MMLU, "--year", "2024"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("duplicates: 5");

    const key = await prite(
      ["--user", "alice", "answer-keys", "import", "-", "--part", "1", "--year", "2024"],
      "1. A\n2. B\n",
    );
    expect(key.code, key.stderr).toBe(0);
    expect(key.stdout).toBe("Saved the answer key for Part 1 2024: 2 answers.\n");
    const list = await prite(["--user", "alice", "answer-keys", "list"]);
    expect(list.stdout).toMatch(/^part\s+year\s+answers\s+updated\n[- ]+\n1\s+2024\s+2\s/);
    const applied = await prite([
      "--user",
      "alice",
      "answer-keys",
      "apply",
      "--part",
      "1",
      "--year",
      "2024",
      "--json",
    ]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ applied: 0 });

    const exported = await prite(["--user", "alice", "export", "questions", "-o", "-"]);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toHaveLength(5);
    const dated = await prite(["--user", "alice", "export", "study-data", "--json"]);
    expect(dated.code).toBe(0);
    const file = (JSON.parse(dated.stdout) as { file: string }).file;
    expect(file).toMatch(/^prite_study_data_\d{4}-\d{2}-\d{2}\.json$/);
    expect(JSON.parse(fs.readFileSync(path.join(tmp, file), "utf8"))).toMatchObject({
      user: { username: "alice" },
    });

    const refused = await prite(["--user", "alice", "users", "list"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("Error: You do not have permission to access this page.\n");
    const json = await prite(["--user", "alice", "users", "list", "--json"]);
    expect(JSON.parse(json.stderr)).toEqual({
      error: "You do not have permission to access this page.",
    });
  });

  it("seed --synthetic creates what it reports", async () => {
    const r = await prite([
      "seed",
      "--synthetic",
      "--users",
      "2",
      "--questions",
      "10",
      "--reviews",
      "30",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ users: 2, questions: 10, reviews: 30 });
  });

  it("a running server holding the data folder is named, with the server to use instead", async () => {
    const lock = path.join(tmp, "data", "pglite.lock");
    fs.writeFileSync(lock, String(process.pid));
    try {
      const r = await run(["answer-keys", "list"], env, { extra: { PORT: "4123" } });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `Error: The embedded database in ${path.join(tmp, "data")} is in use by another process (pid ${process.pid}), usually a running PRITE Study server.\n` +
          "Use that server instead: `prite login --server http://localhost:4123` once, and later commands go to it; or stop that process first.\n",
      );
    } finally {
      fs.rmSync(lock, { force: true });
    }
  });
});

describe(
  "prite login / whoami / logout (subprocess, against a listening server)",
  {
    timeout: 120_000,
  },
  () => {
    let h: Harness;
    let admin: TestUser;
    let url: string;
    beforeAll(async () => {
      h = await createHarness();
      admin = await h.user();
      const app = await h.app();
      await app.listen({ port: 0, host: "127.0.0.1" });
      url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await h.close();
    });

    it("login stores the token, whoami is remote, db migrate asks for --local, logout forgets", async () => {
      const inn = await prite(
        ["login", "--server", url, "--username", admin.user.username, "--password-stdin"],
        `${PASSWORD}\n`,
      );
      expect(inn.code, inn.stderr).toBe(0);
      expect(inn.stdout).toBe(`Signed in to ${url} as ${admin.user.username}.\n`);
      const config = path.join(tmp, "config", "prite", "config.json");
      expect(fs.statSync(config).mode & 0o777).toBe(0o600);

      const who = await prite(["whoami"]);
      expect(who.stdout).toBe(`${admin.user.username} (remote, ${url}, admin)\n`);
      // The embedded database is still reachable for this command with --local.
      expect((await prite(["--local", "whoami"])).stdout).toBe("chief (local, admin)\n");

      const migrate = await prite(["db", "migrate"]);
      expect(migrate.code).toBe(2);
      expect(migrate.stderr).toBe(
        `Error: db migrate works on the local database only: add --local (you are logged in to ${url}).\n`,
      );

      const out = await prite(["logout"]);
      expect(out.code).toBe(0);
      expect(out.stdout).toBe(`Signed out of ${url}.\n`);
      expect(fs.existsSync(config)).toBe(false);
      expect((await prite(["whoami"])).stdout).toBe("chief (local, admin)\n");
    });
  },
);
