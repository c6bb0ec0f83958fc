import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, prite, spawnPrite, type PriteEnv } from "./test-bin";

/**
 * Issue 31: `prite seed --help | head -12` printed an EPIPE stack trace. When the reader of standard
 * output goes away, the command ends quietly, as git and gh do, with the status of a process ended by
 * SIGPIPE (128 + 13) so that `set -o pipefail` still sees that it did not finish.
 */
let tmp: string;
let env: PriteEnv;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-epipe-"));
  env = { dataDir: path.join(tmp, "data"), configHome: path.join(tmp, "config"), cwd: tmp };
  // Builds dist/cli if the sources changed, before the timed runs.
  const first = await prite(["--help"], env);
  if (first.code !== 0) throw new Error(`prite --help failed:\n${first.stderr}`);
}, 180_000);
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

// Every run is a real process (db migrate opens a fresh database) on a machine that may be busy.
describe("a reader that goes away", { timeout: 120_000 }, () => {
  it.each([
    { args: ["seed", "--help"], promptly: 20_000 },
    { args: ["--help"], promptly: 20_000 },
    // Its first write comes after the migrations; a hang would end at the test's timeout.
    { args: ["db", "migrate"], promptly: 120_000 },
  ])("prite $args ends quietly", async ({ args, promptly }) => {
    const started = Date.now();
    const child = spawnPrite(args, env);
    // The reader closes before the first byte is written, so every write meets a closed pipe.
    child.stdout.destroy();
    const result = await collect(child);
    expect(result.stderr).not.toMatch(/EPIPE|\n +at /);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(141);
    expect(Date.now() - started).toBeLessThan(promptly);
  });
});
