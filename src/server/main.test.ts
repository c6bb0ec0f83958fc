import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, spawnServer, waitHealthy, type ServerProcess } from "./test/server-process";

/**
 * Issue 2: the real server process — boot on an empty data folder, refuse a bad environment, hold the
 * embedded database's lock, and close cleanly on SIGTERM (exit 0, lock released, data kept).
 */

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-main-"));
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function startServer(port: number, extra: NodeJS.ProcessEnv = {}): ServerProcess {
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
  return spawnServer(port, env);
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

  it("refuses several processes on the embedded database, saying why (issue 20 item 5)", async () => {
    const server = startServer(await freePort(), { WORKERS: "2" });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(
      "WORKERS: WORKERS must stay 1 on the embedded database (PGlite): it belongs to one process.",
    );
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it("closes the server and the database on SIGTERM: exit 0, lock gone, data kept", async () => {
    const server = startServer(await freePort());
    try {
      // A new folder is created in a child process first, then opened: two starts of PGlite.
      await waitHealthy(server, 120_000);
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
