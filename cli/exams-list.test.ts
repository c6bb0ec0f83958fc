import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prite as run, type PriteEnv } from "./test-bin";

/**
 * Issue 31: after `prite exams create --shared`, `prite exams list` showed only the exams the user
 * takes. The real bin in local mode, on a fresh embedded data folder.
 */
let tmp: string;
let env: PriteEnv;
const prite = (args: string[], input?: string) => run(args, env, { input });

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-exams-"));
  env = { dataDir: path.join(tmp, "data"), configHome: path.join(tmp, "config"), cwd: tmp };
  const add = await prite(
    ["users", "add", "chief", "--email", "chief@example.org", "--pgy", "3", "--password-stdin"],
    "correct horse battery\n",
  );
  if (add.code !== 0) throw new Error(add.stderr);
  const seed = await prite(["seed", "--demo"]);
  if (seed.code !== 0) throw new Error(seed.stderr);
}, 180_000);
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("prite exams list (subprocess, local mode)", { timeout: 120_000 }, () => {
  it("lists the mock exam created with --shared: join code, takers, status; and in --json", async () => {
    const created = await prite(["exams", "create", "--size", "5", "--shared", "--json"]);
    expect(created.code, created.stderr).toBe(0);
    const { code } = JSON.parse(created.stdout) as { code: string };

    const list = await prite(["exams", "list"]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain("Mock exams you gave:");
    expect(list.stdout).toMatch(
      new RegExp(`\\n\\S+ \\S+\\s+${code}\\s+timed\\s+5\\s+0\\s+0\\s+open\\n`),
    );

    const json = await prite(["exams", "list", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      exams: [],
      mockExams: [{ code, questionCount: 5, takers: 0, inProgress: 0, status: "open" }],
    });
  });
});
