import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The built server as the e2e specs meet it: one process per spec file, on a free port, with a data
 * folder of its own and its log in test-results/server-logs (docs/decisions/065, 066).
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Playwright's outputDir: emptied at the start of every run, so it only ever holds this run's files. */
export const OUTPUT_DIR = path.join(ROOT, "test-results");
export const SERVER_LOG_DIR = path.join(OUTPUT_DIR, "server-logs");
/** Set by the global setup: a migrated, empty PGlite data folder that each server starts from a copy of. */
export const GOLDEN_DATA_DIR_ENV = "PRITE_E2E_GOLDEN_DATA_DIR";

const SERVER_ENTRY = path.join(ROOT, "dist", "server", "main.js");
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

export interface RunningServer {
  /** http://127.0.0.1:PORT */
  url: string;
  logFile: string;
  dataDir: string;
  /** SIGTERM, wait for the process to end, then remove its data folder. */
  stop(): Promise<void>;
}

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => resolve());
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("Could not find a free port");
  return address.port;
}

/** A file-name-safe label, e.g. "study" for e2e/study.spec.ts. */
export function logLabel(name: string): string {
  // eslint-disable-next-line regexp/no-super-linear-move -- test titles written in this repository
  return name.replace(/[^a-zA-Z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "server";
}

function copyDataDir(from: string, to: string): void {
  fs.cpSync(from, to, {
    recursive: true,
    // A lock file would only be there if the golden server had crashed; never hand it on.
    filter: (source) => path.basename(source) !== "pglite.lock",
  });
}

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

async function waitUntilHealthy(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `The server exited (${child.exitCode ?? child.signalCode}) before answering /api/health. Log ${logFile}:\n${tail(logFile)}`,
      );
    }
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(
    `The server did not become healthy within ${START_TIMEOUT_MS} ms. Log ${logFile}:\n${tail(logFile)}`,
  );
}

/**
 * Starts `node dist/server/main.js` on a free port with its own data folder: a copy of `template`
 * when given (a migrated empty database), otherwise an empty folder the server creates its database
 * in. LOG_LEVEL=info, and stdout and stderr both go to `logFile`, which the log scan reads afterwards.
 */
export async function startServer(opts: {
  logFile: string;
  template?: string;
  dataDir?: string;
  /** More environment for the server, e.g. WEB_DIST_DIR for a copy of the build a spec changes. */
  env?: Record<string, string>;
}): Promise<RunningServer> {
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  let lastError: unknown;
  // The free port can be taken between the probe and the server's listen: try again on another.
  for (let attempt = 1; attempt <= 3; attempt++) {
    const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "prite-e2e-"));
    if (opts.template) copyDataDir(opts.template, dataDir);
    // A spec that must know its address before the start (PUBLIC_URL) chooses the port itself.
    const port = Number(opts.env?.PORT) || (await freePort());
    const url = `http://127.0.0.1:${port}`;
    const log = fs.openSync(opts.logFile, "a");
    const child = spawn(process.execPath, [SERVER_ENTRY], {
      cwd: ROOT,
      stdio: ["ignore", log, log],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        NODE_ENV: "production",
        // Every request is logged, so the log scan has the whole run to look through.
        LOG_LEVEL: "info",
        // Never inherit a developer's database or AI key: the run must be local and deterministic.
        DATABASE_URL: "",
        OPENAI_API_KEY: "",
        OPENAI_BASE_URL: "",
        ALLOWED_ORIGINS: "",
        TRUST_PROXY: "",
        // Every test account is created from 127.0.0.1; the limit has its own tests.
        REGISTRATIONS_PER_HOUR_PER_IP: "0",
        // "{url}" in a value is this server's own address (PUBLIC_URL for links in mail).
        ...Object.fromEntries(
          Object.entries(opts.env ?? {}).map(([k, v]) => [k, v.replaceAll("{url}", url)]),
        ),
      },
    });
    fs.closeSync(log);
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
        await exited(child);
        clearTimeout(timer);
      }
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    };
    try {
      await waitUntilHealthy(url, child, opts.logFile);
      return { url, logFile: opts.logFile, dataDir, stop };
    } catch (error) {
      lastError = error;
      await stop();
      if (!/EADDRINUSE/.test(tail(opts.logFile, 5))) break;
    }
  }
  throw lastError;
}
