import { Readable } from "node:stream";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, BULK_BODY_LIMIT, DEFAULT_BODY_LIMIT, trpcBodyLimit } from "./app";
import { DEFAULT_THROTTLE } from "./auth/throttle";
import { loginAttempts, questions } from "./db/schema";
import { createHarness, type Harness } from "./test/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe("the HTTP surface", () => {
  it("reports health with the database status", async () => {
    const res = await (await h.app()).inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok", database: { kind: h.db.kind, status: "ok" } });
  });

  it("answers unknown /api paths with 404 JSON", async () => {
    const res = await (await h.app()).inject({ method: "GET", url: "/api/nope" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: "Not found" });
  });

  it("refuses bodies over 1 MB with 413, never 500", async () => {
    const app = await h.app();
    const big = JSON.stringify({ username: "x".repeat(1_100_000), password: "y" });
    const res = await app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: big,
      headers: { "content-type": "application/json" },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: "The request is too large." });
    const trpc = await app.inject({
      method: "POST",
      url: "/trpc/auth.login",
      payload: big,
      headers: { "content-type": "application/json" },
    });
    expect(trpc.statusCode).toBe(413);
  });

  it("refuses a 50 MB bulk save with 413 and writes nothing", async () => {
    const app = await h.app();
    const me = await h.user();
    const question = { text: "x".repeat(1000), options: { A: "a", B: "b" }, correctAnswer: "A" };
    const payload = JSON.stringify({ questions: Array(50_000).fill(question) });
    expect(payload.length).toBeGreaterThan(50_000_000);
    for (const url of ["/api/questions/bulk", "/trpc/questions.bulkCreate"]) {
      const res = await app.inject({
        method: "POST",
        url,
        payload,
        headers: { "content-type": "application/json", ...me.headers },
      });
      expect(res.statusCode).toBe(413);
    }
    expect(await me.caller.questions.list()).toMatchObject({ items: [], total: 0 });
  });

  it("answers malformed JSON with 400", async () => {
    const res = await (
      await h.app()
    ).inject({
      method: "POST",
      url: "/api/auth/login",
      payload: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("The request body is not valid JSON.");
  });

  it("sends exactly the security headers of issue 9, and no HSTS over plain HTTP", async () => {
    const res = await (await h.app()).inject({ method: "GET", url: "/api/health" });
    const directives = String(res.headers["content-security-policy"])
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .sort();
    expect(directives).toEqual(
      [
        "default-src 'self'",
        // WebAssembly for the Anki reader's sql.js, and no JavaScript eval (decision 242).
        "script-src 'self' 'wasm-unsafe-eval'",
        // Radix Select and react-remove-scroll insert <style> elements (decision 062).
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",
        // The service worker and the manifest of the installable app (decision 190).
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].sort(),
    );
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["strict-transport-security"]).toBeUndefined();
    // Without TRUST_PROXY a client cannot claim HTTPS with a header.
    const spoofed = await (
      await h.app()
    ).inject({ method: "GET", url: "/api/health", headers: { "x-forwarded-proto": "https" } });
    expect(spoofed.headers["strict-transport-security"]).toBeUndefined();
  });

  it("sends HSTS when the request came over HTTPS through a trusted proxy", async () => {
    const app = await buildApp({
      handle: h.db,
      config: { aiModel: null, throttle: DEFAULT_THROTTLE },
      trustProxy: true,
      webDir: null,
    });
    try {
      const https = await app.inject({
        method: "GET",
        url: "/api/health",
        headers: { "x-forwarded-proto": "https" },
      });
      expect(https.headers["strict-transport-security"]).toBe(
        "max-age=31536000; includeSubDomains",
      );
      const http = await app.inject({
        method: "GET",
        url: "/api/health",
        headers: { "x-forwarded-proto": "http" },
      });
      expect(http.headers["strict-transport-security"]).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});

/** A body sent in chunks, without content-length, as a client streaming it would. */
function chunked(text: string, chunkSize = 64 * 1024): Readable {
  const buffer = Buffer.from(text);
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= buffer.length) return this.push(null);
      this.push(buffer.subarray(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

async function counts() {
  const [row] = await h.db.db
    .select({
      questions: sql<number>`(select count(*)::int from ${questions})`,
      attempts: sql<number>`(select count(*)::int from ${loginAttempts})`,
    })
    .from(sql`(select 1) as one`);
  return row;
}

describe("body limits on the bytes received", () => {
  const question = (i: number) => ({
    text: `Chunked question ${i}: ${"x".repeat(7000)}`,
    options: { A: "a", B: "b" },
    correctAnswer: "A",
    part: "1",
    year: 2024,
  });

  it("gives 1 MB to every procedure and 25 MB only when every procedure of the call is a bulk save", () => {
    expect(trpcBodyLimit("/trpc/auth.login")).toBe(DEFAULT_BODY_LIMIT);
    expect(trpcBodyLimit("/trpc/questions.bulkCreate")).toBe(BULK_BODY_LIMIT);
    expect(trpcBodyLimit("/trpc/imports.commit,imports.checkDuplicates?batch=1")).toBe(
      BULK_BODY_LIMIT,
    );
    expect(trpcBodyLimit("/trpc/questions.bulkCreate,auth.login?batch=1")).toBe(DEFAULT_BODY_LIMIT);
  });

  it("refuses a chunked body over 1 MB to a small route with 413 before parsing it", async () => {
    const app = await h.app();
    const before = await counts();
    const body = JSON.stringify({ username: "someone", password: "p".repeat(1_200_000) });
    for (const url of ["/trpc/auth.login", "/api/auth/login"]) {
      const res = await app.inject({
        method: "POST",
        url,
        payload: chunked(body),
        headers: { "content-type": "application/json" },
      });
      expect([url, res.statusCode]).toEqual([url, 413]);
      expect(res.headers["content-length"]).toBeDefined();
      expect(res.json()).toEqual({ message: "The request is too large." });
    }
    // Not even a sign-in attempt was recorded: the procedure never ran.
    expect(await counts()).toEqual(before);
  });

  it("accepts a chunked bulk save over 1 MB and refuses one over 25 MB, writing nothing", async () => {
    const app = await h.app();
    const me = await h.user();
    const fits = JSON.stringify({ questions: Array.from({ length: 200 }, (_, i) => question(i)) });
    expect(fits.length).toBeGreaterThan(DEFAULT_BODY_LIMIT);
    const before = await counts();
    const trpc = await app.inject({
      method: "POST",
      url: "/trpc/questions.bulkCreate",
      payload: chunked(fits),
      headers: { "content-type": "application/json", ...me.headers },
    });
    expect(trpc.statusCode).toBe(200);
    const rest = await app.inject({
      method: "POST",
      url: "/api/questions/bulk",
      payload: chunked(fits),
      headers: { "content-type": "application/json", ...me.headers },
    });
    expect(rest.statusCode).toBe(201);
    expect((await counts())!.questions).toBe(before!.questions + 400);

    const tooBig = JSON.stringify({
      questions: Array.from({ length: 3700 }, (_, i) => question(i)),
    });
    expect(tooBig.length).toBeGreaterThan(BULK_BODY_LIMIT);
    const after = await counts();
    for (const url of ["/trpc/questions.bulkCreate", "/api/questions/bulk"]) {
      const res = await app.inject({
        method: "POST",
        url,
        payload: chunked(tooBig, 1024 * 1024),
        headers: { "content-type": "application/json", ...me.headers },
      });
      expect([url, res.statusCode]).toEqual([url, 413]);
      expect(res.json()).toEqual({ message: "The request is too large." });
    }
    expect(await counts()).toEqual(after);
  });

  it("refuses multipart bodies to tRPC, which no procedure takes, without reading them", async () => {
    const res = await (
      await h.app()
    ).inject({
      method: "POST",
      url: "/trpc/auth.login",
      payload: chunked("--x\r\n".repeat(500_000)),
      headers: { "content-type": "multipart/form-data; boundary=x" },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: "Unsupported Media Type: multipart/form-data" });
  });

  it("answers 413 to a chunked upload over a real connection", async () => {
    const app = await buildApp({
      handle: h.db,
      config: { aiModel: null, throttle: DEFAULT_THROTTLE },
      webDir: null,
    });
    try {
      await app.listen({ port: 0, host: "127.0.0.1" });
      const { port } = app.server.address() as AddressInfo;
      const piece = new TextEncoder().encode("x".repeat(64 * 1024));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0)
            controller.enqueue(new TextEncoder().encode('{"username":"a","password":"'));
          // 3 MB: over the 1 MB of sign-in, under the 25 MB the tRPC route itself allows.
          if (sent > 3 * 1024 * 1024) {
            controller.enqueue(new TextEncoder().encode('"}'));
            return controller.close();
          }
          sent += piece.length;
          controller.enqueue(piece);
        },
      });
      const res = await fetch(`http://127.0.0.1:${port}/trpc/auth.login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ message: "The request is too large." });
    } finally {
      await app.close();
    }
  });
});

describe("the single-page app", () => {
  it("serves index.html for client routes and 404s missing files", async () => {
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const { buildApp } = await import("./app");
    const { DEFAULT_THROTTLE } = await import("./auth/throttle");
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-web-"));
    fs.mkdirSync(path.join(webDir, "assets"));
    fs.writeFileSync(path.join(webDir, "index.html"), "<!doctype html><title>PRITE Study</title>");
    fs.writeFileSync(path.join(webDir, "assets", "app-abc.js"), "console.log(1)");
    const zlib = await import("node:zlib");
    fs.writeFileSync(
      path.join(webDir, "assets", "app-abc.js.br"),
      zlib.brotliCompressSync("console.log(1)"),
    );
    const app = await buildApp({
      handle: h.db,
      config: { aiModel: null, throttle: DEFAULT_THROTTLE },
      webDir,
    });
    try {
      const route = await app.inject({ method: "GET", url: "/study?x=1" });
      expect(route.statusCode).toBe(200);
      expect(route.body).toContain("<title>PRITE Study</title>");
      const asset = await app.inject({ method: "GET", url: "/assets/app-abc.js" });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers["cache-control"]).toContain("immutable");
      const compressed = await app.inject({
        method: "GET",
        url: "/assets/app-abc.js",
        headers: { "accept-encoding": "br, gzip" },
      });
      expect(compressed.headers["content-encoding"]).toBe("br");
      expect(zlib.brotliDecompressSync(compressed.rawPayload).toString()).toBe("console.log(1)");
      const stale = await app.inject({ method: "GET", url: "/assets/app-old.js" });
      expect(stale.statusCode).toBe(404);
      expect(stale.body).not.toContain("<title>");
      const missingFile = await app.inject({ method: "GET", url: "/favicon-missing.png" });
      expect(missingFile.statusCode).toBe(404);
      // No route-preloads.json in this build: no Link header, the page still served.
      expect(route.headers.link).toBeUndefined();
    } finally {
      await app.close();
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  });

  it("names a page's chunks in a Link header on its HTML (decision 418)", async () => {
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const { buildApp } = await import("./app");
    const { DEFAULT_THROTTLE } = await import("./auth/throttle");
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-web-"));
    fs.writeFileSync(path.join(webDir, "index.html"), "<!doctype html><title>PRITE Study</title>");
    fs.writeFileSync(
      path.join(webDir, "route-preloads.json"),
      JSON.stringify({
        entry: { scripts: ["/assets/index-a.js"], styles: ["/assets/index-a.css"] },
        routes: [{ path: "/exams/$examId", files: ["/assets/app-b.js", "/assets/_examId-c.js"] }],
      }),
    );
    const app = await buildApp({
      handle: h.db,
      config: { aiModel: null, throttle: DEFAULT_THROTTLE },
      webDir,
    });
    try {
      const runner = await app.inject({ method: "GET", url: "/exams/0f8fad5b?x=1" });
      expect(runner.statusCode).toBe(200);
      expect(runner.headers.link).toBe(
        "</assets/index-a.js>; rel=modulepreload, </assets/index-a.css>; rel=preload; as=style; crossorigin, </assets/app-b.js>; rel=modulepreload, </assets/_examId-c.js>; rel=modulepreload",
      );
      const other = await app.inject({ method: "GET", url: "/browse" });
      expect(other.statusCode).toBe(200);
      expect(other.headers.link).toBeUndefined();
    } finally {
      await app.close();
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  });
});
