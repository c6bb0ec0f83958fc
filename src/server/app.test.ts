import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

  it("sends security headers", async () => {
    const res = await (await h.app()).inject({ method: "GET", url: "/api/health" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
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
    } finally {
      await app.close();
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  });
});
