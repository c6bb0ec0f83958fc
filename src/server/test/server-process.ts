import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

/** The real server (`src/server/main.ts`) in a child process, for tests of the process itself. */
export const ROOT = path.resolve(__dirname, "../../..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the server with exactly `env` (VITEST removed, so it behaves as in production). */
export function spawnServer(port: number, env: NodeJS.ProcessEnv): ServerProcess {
  const childEnv = { ...env };
  delete childEnv.VITEST;
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: ROOT,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, port, base: `http://127.0.0.1:${port}`, output: () => output, exited };
}

export async function waitHealthy(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`server exited (${exitCode}):\n${server.output()}`);
    try {
      const res = await fetch(`${server.base}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  server.child.kill("SIGKILL");
  throw new Error(`server not healthy in ${timeoutMs} ms:\n${server.output()}`);
}
