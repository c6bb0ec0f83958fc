/**
 * The built server (`npm run build`: dist/server/main.js) started for a bench and waited for until
 * `GET /api/health` answers: the one way inp-bench.ts, cold-paths-bench.ts, lighthouse.ts and
 * specialty-bench.ts start it. Local mode (a PGlite folder) unless `env` names DATABASE_URL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export interface BuiltServer {
  base: string;
  child: ChildProcess;
  /** SIGTERM, then the process's exit. */
  stop(): Promise<void>;
}

export async function startBuiltServer(opts: {
  /** The checkout whose dist/ runs (a baseline's copy, or this one). */
  root: string;
  port: number;
  /** More environment: DATA_DIR or DATABASE_URL, limits, … (over the defaults below). */
  env?: Record<string, string>;
  /** Said in the error when it does not start. */
  label?: string;
  /** How long to wait for /api/health (default 120 s: a large database's first start). */
  timeoutMs?: number;
}): Promise<BuiltServer> {
  const base = `http://127.0.0.1:${opts.port}`;
  // BUILT_SERVER_NODE_FLAGS: more Node flags for the server (`--cpu-prof --cpu-prof-dir=…` for a profile).
  const extra = (process.env.BUILT_SERVER_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  const main = path.join(opts.root, "dist", "server", "main.js");
  const child = spawn(process.execPath, [...extra, main], {
    cwd: opts.root,
    env: {
      ...process.env,
      PORT: String(opts.port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      PRITE_ROOT: opts.root,
      ...opts.env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${opts.label ?? "server"}: exited while starting`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error(`${opts.label ?? "server"}: did not start`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    child,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
