import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Issue 2: the real server process — boot on an empty data folder, refuse a bad environment, hold the
 * embedded database's lock, and close cleanly on SIGTERM (exit 0, lock released, data kept).
 */
const ROOT = path.resolve(__dirname, "../..");

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-main-"));
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(port: number, extra: NodeJS.ProcessEnv = {}): Server {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    // API only: this test is about the process, not the SPA.
    WEB_DIST_DIR: path.join(dataDir, "no-web"),
    LOG_LEVEL: "info",
    ...extra,
  };
  delete env.DATABASE_URL;
  delete env.VITEST;
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, port, output: () => output, exited };
}

async function waitHealthy(server: Server, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`server exited (${exitCode}):\n${server.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  server.child.kill("SIGKILL");
  throw new Error(`server not healthy in ${timeoutMs} ms:\n${server.output()}`);
}

const lockFile = () => path.join(dataDir, "pglite.lock");

// The process always runs on its embedded database here (the lock is part of what is tested), so the
// PostgreSQL pass of the suite (TEST_DATABASE_URL) would only repeat the same minute of work.
describe.skipIf(!!process.env.TEST_DATABASE_URL)("the server process", () => {
  it("refuses to start with a bad environment, naming the variable", async () => {
    const server = startServer(await freePort(), { PORT: "not-a-port" });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(
      "Invalid environment:\n  PORT: PORT must be a port number from 0 to 65535",
    );
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it("closes the server and the database on SIGTERM: exit 0, lock gone, data kept", async () => {
    const server = startServer(await freePort());
    try {
      await waitHealthy(server);
      expect(fs.readFileSync(lockFile(), "utf8").trim()).toBe(String(server.child.pid));

      // A second process on the same folder gets a clear message instead of corrupting it.
      const second = startServer(await freePort());
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(
        `The embedded database in ${dataDir} is in use by another process (pid ${server.child.pid})`,
      );

      const registered = await fetch(`http://127.0.0.1:${server.port}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          username: "survivor",
          email: "survivor@example.test",
          pgyLevel: "2",
          password: "a long password",
          confirmPassword: "a long password",
        }),
      });
      expect(registered.status).toBe(201);

      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('"signal":"SIGTERM"');
      expect(fs.existsSync(lockFile())).toBe(false);
    } finally {
      server.child.kill("SIGKILL");
    }

    // The folder opens again at once, with what was written before.
    const again = startServer(await freePort());
    try {
      await waitHealthy(again);
      const login = await fetch(`http://127.0.0.1:${again.port}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "survivor", password: "a long password" }),
      });
      expect(login.status).toBe(200);
      again.child.kill("SIGINT");
      expect(await again.exited).toBe(0);
      expect(fs.existsSync(lockFile())).toBe(false);
    } finally {
      again.child.kill("SIGKILL");
    }
  }, 180_000);
});
