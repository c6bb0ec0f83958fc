import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The built `prite` bin as a user runs it. bin/prite.mjs builds dist/cli itself when the sources changed
 * (or dist is missing), so the first call may take a few seconds.
 */
const ROOT = path.resolve(__dirname, "..");
const BIN = path.join(ROOT, "bin/prite.mjs");
const MMLU = path.resolve(ROOT, "../shared/fixtures/real/mmlu_clinical_knowledge_dev.csv");
let tmp: string;

function prite(args: string[], input?: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: path.join(tmp, "data"),
    XDG_CONFIG_HOME: path.join(tmp, "config"),
    PRITE_USER: "",
  };
  delete env.DATABASE_URL;
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: tmp,
    env,
    input,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-smoke-"));
  // Builds dist/cli once, before the timed tests.
  const first = prite(["--help"]);
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
  ["users", "list"],
  ["users", "promote"],
  ["users", "demote"],
  ["db", "migrate"],
  ["seed"],
];

describe("prite (subprocess)", () => {
  it("--help lists every command with examples, exit 0", () => {
    const r = prite(["--help"]);
    expect(r.code).toBe(0);
    for (const c of ["import", "answer-keys", "export", "users", "seed", "db", "login"])
      expect(r.stdout).toContain(c);
    expect(r.stdout).toContain("Examples:");
  });

  it.each(COMMANDS.map((c) => [c.join(" ")]))("prite %s --help has an example, exit 0", (cmd) => {
    const r = prite([...cmd.split(" "), "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Example/);
  });

  it("usage errors exit 2 without a stack trace", () => {
    for (const args of [
      ["import"],
      ["no-such-command"],
      ["import", MMLU, "--on-duplicate", "merge"],
      ["answer-keys", "apply", "--part", "1"],
    ]) {
      const r = prite(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 120_000);

  it("local mode end to end: seed a user, import, re-import, export, refusals", () => {
    const seeded = prite([
      "seed",
      "--synthetic",
      "--users",
      "1",
      "--questions",
      "0",
      "--reviews",
      "0",
      "--json",
    ]);
    expect(seeded.code, seeded.stderr).toBe(0);
    const user = `${(JSON.parse(seeded.stdout) as { prefix: string }).prefix}_1`;

    const imported = prite(["--user", user, "import", MMLU, "--year", "2024", "--json"]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ total: 5, imported: 5 });
    // Piped: no progress bar on stderr.
    expect(imported.stderr).toBe("");

    const again = prite(["--user", user, "import", MMLU, "--year", "2024"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("duplicates: 5");

    const key = prite(
      ["--user", user, "answer-keys", "import", "-", "--part", "1", "--year", "2024"],
      "1. A\n2. B\n",
    );
    expect(key.code, key.stderr).toBe(0);
    expect(key.stdout).toContain("2 answers");
    const applied = prite([
      "--user",
      user,
      "answer-keys",
      "apply",
      "--part",
      "1",
      "--year",
      "2024",
      "--json",
    ]);
    expect(applied.code, applied.stderr).toBe(0);

    const exported = prite(["--user", user, "export", "questions", "-o", "-"]);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toHaveLength(5);
    const dated = prite(["--user", user, "export", "study-data", "--json"]);
    expect(dated.code).toBe(0);
    const file = (JSON.parse(dated.stdout) as { file: string }).file;
    expect(file).toMatch(/^prite_study_data_\d{4}-\d{2}-\d{2}\.json$/);
    expect(fs.existsSync(path.join(tmp, file))).toBe(true);

    const refused = prite(["--user", user, "users", "list"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("Error: You do not have permission to access this page.\n");
    const json = prite(["--user", user, "users", "list", "--json"]);
    expect(JSON.parse(json.stderr)).toEqual({
      error: "You do not have permission to access this page.",
    });
  }, 300_000);

  it("a running server holding the data folder is named, with --server suggested", () => {
    const lock = path.join(tmp, "data", "pglite.lock");
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.writeFileSync(lock, String(process.pid));
    try {
      const r = prite(["answer-keys", "list"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("is in use by another process");
      expect(r.stderr).toContain("--server");
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      fs.rmSync(lock, { force: true });
    }
  });
});
