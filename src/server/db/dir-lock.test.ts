import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireDirLock, DataDirLockedError } from "./dir-lock";

/** The exclusive lock on the embedded database's folder (issue 2 item 3, decision 063). */
let dir: string;
const lockPath = () => path.join(dir, "pglite.lock");
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-lock-"));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has ended. */
function deadPid(): number {
  const done = spawnSync(process.execPath, ["-e", ""]);
  return done.pid!;
}

function liveChild(): ChildProcess {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  children.push(child);
  return child;
}

describe("the data folder lock", () => {
  it("is taken in an empty folder, holds our pid, and is released", () => {
    const release = acquireDirLock(dir);
    expect(fs.readFileSync(lockPath(), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(lockPath())).toBe(false);
    // Nothing else is left behind.
    expect(fs.readdirSync(dir)).toEqual([]);
    acquireDirLock(dir)();
  });

  it("refuses while another live process holds it, naming that process", () => {
    const holder = liveChild();
    fs.writeFileSync(lockPath(), String(holder.pid));
    expect(() => acquireDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDirLock(dir)).toThrow(`is in use by another process (pid ${holder.pid})`);
    expect(fs.readFileSync(lockPath(), "utf8")).toBe(String(holder.pid));
  });

  it("takes over a lock whose owner is gone, or that holds no pid", () => {
    for (const content of [String(deadPid()), "", "garbage"]) {
      fs.writeFileSync(lockPath(), content);
      const release = acquireDirLock(dir);
      expect(fs.readFileSync(lockPath(), "utf8")).toBe(String(process.pid));
      release();
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("never releases a lock that has passed to another process", () => {
    const release = acquireDirLock(dir);
    const other = liveChild();
    fs.writeFileSync(lockPath(), String(other.pid));
    release();
    expect(fs.readFileSync(lockPath(), "utf8")).toBe(String(other.pid));
  });

  it("clears a takeover guard left by a process that died inside the takeover", () => {
    fs.writeFileSync(lockPath(), String(deadPid()));
    const guard = `${lockPath()}.takeover`;
    fs.mkdirSync(guard);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(guard, old, old);
    const release = acquireDirLock(dir);
    expect(fs.existsSync(guard)).toBe(false);
    release();
  });

  it("lets exactly one of several processes take over the same stale lock at the same instant", async () => {
    fs.writeFileSync(lockPath(), String(deadPid()));
    const go = path.join(dir, "go");
    const script = `
      import fs from "node:fs";
      import { acquireDirLock } from ${JSON.stringify(path.join(__dirname, "dir-lock.ts"))};
      console.log("ready");
      while (!fs.existsSync(${JSON.stringify(go)})) {}
      let result;
      try { acquireDirLock(${JSON.stringify(dir)}); result = "won"; }
      catch (err) { result = err.name === "DataDirLockedError" ? "locked" : "error " + err.message; }
      console.log(result);
      // Hold it while the others look.
      setTimeout(() => {}, 3000);
    `;
    const racers = Array.from({ length: 4 }, () => {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", script],
        {
          cwd: path.resolve(__dirname, "../../.."),
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      children.push(child);
      let out = "";
      child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
      child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
      return { child, out: () => out };
    });
    const until = async (ok: () => boolean) => {
      const deadline = Date.now() + 60_000;
      while (!ok()) {
        if (Date.now() > deadline) throw new Error(racers.map((r) => r.out()).join("\n---\n"));
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until(() => racers.every((r) => r.out().includes("ready")));
    fs.writeFileSync(go, "");
    await until(() => racers.every((r) => /won|locked|error/.test(r.out())));
    const results = racers.map((r) => r.out().replace("ready", "").trim()).sort();
    expect(results).toEqual(["locked", "locked", "locked", "won"]);
    const winner = racers.find((r) => r.out().includes("won"))!;
    expect(fs.readFileSync(lockPath(), "utf8")).toBe(String(winner.child.pid));
  }, 90_000);
});
