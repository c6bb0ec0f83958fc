import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { buildApp, serverLoggerOptions } from "../app";
import { DEFAULT_THROTTLE } from "../auth/throttle";
import type { Harness } from "./harness";

/** The server as main.ts builds it, on the harness's database, with every log line kept in `lines`. */
export async function appWithCapturedLogs(
  h: Harness,
  level: string,
): Promise<{ app: FastifyInstance; lines: string[] }> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  const app = await buildApp({
    handle: h.db,
    config: { aiModel: null, throttle: DEFAULT_THROTTLE },
    logger: { ...serverLoggerOptions(level), stream },
    webDir: null,
  });
  return { app, lines };
}
