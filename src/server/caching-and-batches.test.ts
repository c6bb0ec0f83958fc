/** Issue 24 items 8 and 11: tRPC batches are capped, and caching headers fit what each answer is. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, TRPC_MAX_BATCH } from "./app";
import { DEFAULT_THROTTLE } from "./auth/throttle";
import { createHarness, type Harness, type TestUser } from "./test/harness";

let h: Harness;
let app: FastifyInstance;
let user: TestUser;
let webDir: string;

beforeAll(async () => {
  h = await createHarness();
  user = await h.user();
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-web-"));
  fs.mkdirSync(path.join(webDir, "assets"));
  fs.writeFileSync(path.join(webDir, "index.html"), "<!doctype html><title>PRITE Study</title>");
  fs.writeFileSync(path.join(webDir, "assets", "index-3f9a1c.js"), "export {};");
  fs.writeFileSync(path.join(webDir, "sw.js"), "self.addEventListener('fetch', () => {});");
  fs.writeFileSync(path.join(webDir, "manifest.webmanifest"), '{"name":"PRITE Study"}');
  // As scripts/build.mjs does: browsers ask for these (issue 31), so the caching rules must hold
  // whichever copy is sent.
  for (const file of ["index.html", "assets/index-3f9a1c.js", "sw.js", "manifest.webmanifest"]) {
    const data = fs.readFileSync(path.join(webDir, file));
    fs.writeFileSync(path.join(webDir, `${file}.br`), zlib.brotliCompressSync(data));
    fs.writeFileSync(path.join(webDir, `${file}.gz`), zlib.gzipSync(data));
  }
  app = await buildApp({
    handle: h.db,
    config: { aiModel: null, throttle: DEFAULT_THROTTLE },
    webDir,
  });
});
afterAll(async () => {
  await app?.close();
  await h?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const batch = (n: number) =>
  `/trpc/${Array.from({ length: n }, () => "auth.me").join(",")}?batch=1&input=${encodeURIComponent(
    JSON.stringify({}),
  )}`;

describe("tRPC batches", () => {
  it(`answer a batch of ${TRPC_MAX_BATCH} calls and refuse a larger one with 400`, async () => {
    const ok = await app.inject({
      method: "GET",
      url: batch(TRPC_MAX_BATCH),
      headers: user.headers,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toHaveLength(TRPC_MAX_BATCH);
    const tooMany = await app.inject({
      method: "GET",
      url: batch(TRPC_MAX_BATCH + 1),
      headers: user.headers,
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it("the SPA's batch link sends at most as many", () => {
    const source = fs.readFileSync(path.join(process.cwd(), "src/web/lib/trpc.ts"), "utf8");
    const maxItems = Number(/maxItems:\s*(\d+)/.exec(source)?.[1]);
    expect(maxItems).toBeGreaterThan(0);
    expect(maxItems).toBeLessThanOrEqual(TRPC_MAX_BATCH);
  });
});

describe("Cache-Control", () => {
  it.each([
    ["GET", "/trpc/auth.me"],
    ["GET", "/api/auth/me"],
    ["GET", "/api/questions"],
    ["GET", "/api/stats/comparative"],
    ["GET", "/api/nowhere"],
  ])("%s %s: no-store (answers depend on the session)", async (method, url) => {
    const res = await app.inject({ method: method as "GET", url, headers: user.headers });
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("a failed sign-in is not stored either", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: "nobody", password: "not the password" },
    });
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it.each(["/", "/index.html", "/study", "/browse?q=x"])(
    "%s: the shell is revalidated on every load (no-cache)",
    async (url) => {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-cache");
    },
  );

  // Issue 18: the browser looks for a new version by fetching sw.js; an hour of HTTP cache would
  // hide a deploy from it.
  it.each(["/sw.js", "/manifest.webmanifest"])("%s: revalidated on every load", async (url) => {
    const res = await app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-cache");
  });

  it("the policy lets this origin's service worker and manifest load", async () => {
    const res = await app.inject({ method: "GET", url: "/" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });

  it("hashed assets stay immutable", async () => {
    const res = await app.inject({ method: "GET", url: "/assets/index-3f9a1c.js" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  // Issue 31: every browser sends Accept-Encoding, and then the .br or .gz copy is what is sent.
  const encodings = [
    ["br", "br"],
    ["gzip, deflate", "gzip"],
    ["gzip, deflate, br, zstd", "br"],
    [undefined, undefined],
  ] as const;
  const revalidated = ["/", "/study/session", "/sw.js", "/manifest.webmanifest"];
  describe.each(encodings)("with Accept-Encoding: %s", (acceptEncoding, sent) => {
    const headers = acceptEncoding ? { "accept-encoding": acceptEncoding } : {};

    it.each(revalidated)("%s is revalidated on every load (no-cache)", async (url) => {
      const res = await app.inject({ method: "GET", url, headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-encoding"]).toBe(sent);
      expect(res.headers["cache-control"]).toBe("no-cache");
    });

    it("a hashed asset stays immutable", async () => {
      const res = await app.inject({ method: "GET", url: "/assets/index-3f9a1c.js", headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-encoding"]).toBe(sent);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    });
  });
});
