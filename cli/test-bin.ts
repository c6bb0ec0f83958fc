import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/**
 * The built `prite` bin as a user runs it, for subprocess tests. bin/prite.mjs builds dist/cli itself
 * when the sources changed (one build at a time), so a first call may take a few seconds.
 *
 * Asynchronous on purpose: a test that serves HTTP from its own process (remote mode) must keep its event
 * loop running while the subprocess talks to it.
 */
export const ROOT = path.resolve(__dirname, "..");
export const BIN = path.join(ROOT, "bin/prite.mjs");
export const REAL = path.join(ROOT, "fixtures/real");

export interface PriteEnv {
  /** The embedded data folder (local mode); DATABASE_URL is always removed. */
  dataDir: string;
  /** XDG_CONFIG_HOME: where `prite login` stores its token. */
  configHome: string;
  cwd?: string;
}

export function priteEnv(env: PriteEnv, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: env.dataDir,
    XDG_CONFIG_HOME: env.configHome,
    PRITE_USER: "",
    ...extra,
  };
  delete out.DATABASE_URL;
  return out;
}

export interface PriteResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Waits for a child to end, collecting its output. */
export function collect(child: ChildProcess, input?: string): Promise<PriteResult> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  if (child.stdin) child.stdin.end(input ?? "");
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export function spawnPrite(args: string[], env: PriteEnv, extra: NodeJS.ProcessEnv = {}) {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: env.cwd ?? path.dirname(env.dataDir),
    env: priteEnv(env, extra),
    stdio: ["pipe", "pipe", "pipe"],
  });
}

export function prite(
  args: string[],
  env: PriteEnv,
  { input, extra = {} }: { input?: string; extra?: NodeJS.ProcessEnv } = {},
): Promise<PriteResult> {
  return collect(spawnPrite(args, env, extra), input);
}
