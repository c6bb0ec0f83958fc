import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, collect, priteEnv, ROOT, type PriteEnv } from "./test-bin";

/**
 * Issue 7: "the README's CLI examples run as written on a fresh clone". Every line of the sh block of the
 * "Command line" section runs in order against a fresh data folder, from a folder that holds the clone's
 * fixtures/ as the clone's own folder does. `npm run cli --` is the package script `node bin/prite.mjs`
 * (checked below), run here directly so that files the examples write land in the temporary folder.
 * Lines marked "needs a running server" are skipped.
 *
 * SOURCE is the README itself: the examples users copy are the ones tested.
 */
const SOURCE = path.join(ROOT, "README.md");
const NEEDS_SERVER = "needs a running server";

function commandLineBlock(markdown: string): string[] {
  const section = markdown.slice(markdown.indexOf("## Command line"));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error(`No sh block in the Command line section of ${SOURCE}`);
  return block[1]!.split("\n").filter((line) => line.trim() !== "");
}

let tmp: string;
let env: PriteEnv;
const lines = commandLineBlock(fs.readFileSync(SOURCE, "utf8"));

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-readme-"));
  fs.symlinkSync(path.join(ROOT, "fixtures"), path.join(tmp, "fixtures"));
  env = { dataDir: path.join(tmp, "data"), configHome: path.join(tmp, "config"), cwd: tmp };
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the README's command-line examples", () => {
  it("`npm run cli` is `node bin/prite.mjs`, and every example goes through it", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.cli).toBe("node bin/prite.mjs");
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(line).toContain("npm run cli -- ");
    // Remote mode is shown too, and only those lines need a server.
    expect(
      lines.filter((l) => l.includes(NEEDS_SERVER)).map((l) => /cli -- (\S+)/.exec(l)?.[1]),
    ).toEqual(["login", "whoami"]);
  });

  it("run as written, in order, on a fresh data folder", async () => {
    const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`;
    const outputs: string[] = [];
    for (const line of lines) {
      if (line.includes(NEEDS_SERVER)) continue;
      const child = spawn("sh", ["-c", line.replaceAll("npm run cli --", cli)], {
        cwd: tmp,
        env: priteEnv(env),
        stdio: ["pipe", "pipe", "pipe"],
      });
      const r = await collect(child);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stderr, line).not.toMatch(/^Error/m);
      outputs.push(r.stdout);
    }
    const all = outputs.join("");
    // What the comments promise.
    expect(all).toContain("Created chief (admin: the first account).");
    expect(all).toMatch(/Added 12 demo questions \(public, \d{4}\) as chief\./);
    expect(all).toContain(
      "Dry run, nothing saved. Total: 508, duplicates: 0, merged: 0, would import: 508",
    );
    expect(all).toContain("Total: 508, duplicates: 0, merged: 0, imported: 508");
    expect(all).toContain("Total: 508, duplicates: 508, merged: 508, imported: 0");
    expect(all).toContain("[Cyber Security]: 7 questions, 0 rows with errors, 3 with warnings");
    expect(all).toContain(
      "ham_extra_class_2024_2028.apkg: 590 multiple choice, 0 flashcards, 1 notes skipped",
    );
    expect(all).toContain(
      "anki_apkg_export_output.apkg: 0 multiple choice, 3 flashcards, 0 notes skipped",
    );
    expect(all).toContain("Saved the answer key for Part 1 2024: 50 answers.");
    expect(all).toMatch(
      /Join code: [A-Z2-9]{8}\nMock exam of 100 public questions \(timed, 90 s per question\)\./,
    );
    expect(all).toContain("alice is now an admin.");
    expect(all).toContain("alice is now a regular user.");
    expect(all).toContain("Not logged in: nothing to forget.");
    expect(JSON.parse(fs.readFileSync(path.join(tmp, "bank.json"), "utf8"))).toHaveLength(
      12 + 508 + 7 + 6 + 590 + 3,
    );
    expect(
      fs.readdirSync(tmp).some((f) => /^prite_study_data_\d{4}-\d{2}-\d{2}\.json$/.test(f)),
    ).toBe(true);
  }, 300_000);
});
