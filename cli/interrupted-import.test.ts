import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, prite, spawnPrite, type PriteEnv } from "./test-bin";

/**
 * Issue 7: an import killed mid-way leaves no partial rows. `prite import` runs as its own process on an
 * embedded data folder (local mode), is killed with SIGKILL while its one commit is writing, and the
 * folder is opened again: the stale lock is taken over (and named), and the user has no questions.
 */
const ROWS = 6_000;
/**
 * Growth of the data folder after 'Saving' that shows rows are being written (bytes). The whole commit
 * of these rows grows it by about 4 MB, steadily (since the trigram index holds only public
 * questions, migration 0025): 1 MB is well inside it.
 */
const WRITING = 1024 * 1024;

let tmp: string;
let env: PriteEnv;

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    try {
      total += entry.isDirectory() ? folderBytes(file) : fs.statSync(file).size;
    } catch {
      // removed while walking (PGlite recycles files)
    }
  }
  return total;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-kill-"));
  env = { dataDir: path.join(tmp, "data"), configHome: path.join(tmp, "config"), cwd: tmp };
  const lines = ["Question,A,B,C,D,Answer"];
  for (let i = 0; i < ROWS; i++) {
    lines.push(
      `Generated question ${i}: which finding best explains presentation ${i * 7919} in this vignette?,Option a${i},Option b${i},Option c${i},Option d${i},${"ABCD"[i % 4]}`,
    );
  }
  fs.writeFileSync(path.join(tmp, "big.csv"), lines.join("\n"));
  const add = await prite(
    ["users", "add", "chief", "--email", "chief@example.org", "--pgy", "3", "--password-stdin"],
    env,
    { input: "correct horse battery\n" },
  );
  if (add.code !== 0) throw new Error(`users add failed:\n${add.stderr}`);
}, 120_000);
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("an interrupted import", () => {
  it("killed while saving leaves no rows; the next command takes the lock over and says so", async () => {
    const child = spawnPrite(["--verbose", "import", "big.csv", "--year", "2024"], env);
    const done = collect(child);
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    let exited = false;
    child.on("exit", () => (exited = true));

    // Wait for the commit to start, then for the database to be visibly writing it.
    const deadline = Date.now() + 60_000;
    while (!stderr.includes(`Saving: 0/${ROWS}`) && !exited && Date.now() < deadline)
      await sleep(50);
    expect(stderr, "the import reached its commit").toContain(
      `Checking for duplicates: ${ROWS}/${ROWS}`,
    );
    const start = folderBytes(env.dataDir);
    while (!exited && folderBytes(env.dataDir) - start < WRITING && Date.now() < deadline)
      await sleep(50);
    expect(exited, "the import was still saving when it was killed").toBe(false);
    child.kill("SIGKILL");
    const result = await done;
    expect(result.signal).toBe("SIGKILL");

    // The killed process's lock is still in the folder.
    const lock = path.join(env.dataDir, "pglite.lock");
    expect(fs.readFileSync(lock, "utf8").trim()).toBe(String(child.pid));

    const exported = await prite(["export", "questions", "-o", "-"], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout)).toEqual([]);
    expect(exported.stderr).toBe(
      `Note: ${lock} was left by process ${child.pid}, which is no longer running (an interrupted command?); taking it over.\n`,
    );

    // That command released the folder normally.
    expect(fs.existsSync(lock)).toBe(false);
  }, 90_000);
});
