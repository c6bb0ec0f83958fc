#!/usr/bin/env node
// Builds the SPA (Vite) and bundles the server and CLI to plain JavaScript (esbuild).
// `--node-only` skips the SPA (the CLI needs only the Node bundles).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { build as esbuild } from "esbuild";
import { sourceFingerprint, stampPath } from "./fingerprint.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nodeOnly = process.argv.includes("--node-only");

const COMPRESSIBLE = /\.(js|css|html|svg|json|webmanifest|txt)$/;

/**
 * Brotli and gzip copies next to each text asset, served by @fastify/static's `preCompressed`: a phone
 * on a slow connection downloads about a third of the bytes, and the server never compresses per request.
 */
function precompress(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      precompress(file);
      continue;
    }
    if (!COMPRESSIBLE.test(entry.name)) continue;
    const data = fs.readFileSync(file);
    if (data.length < 1024) continue;
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(data, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
    );
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
  }
}

export async function buildAll({ webToo = true, quiet = false } = {}) {
  const started = Date.now();
  const fingerprint = sourceFingerprint(root);
  if (webToo) {
    const { build } = await import("vite");
    await build({
      root,
      configFile: path.join(root, "vite.config.ts"),
      logLevel: quiet ? "warn" : "info",
    });
  }
  const common = {
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
    tsconfig: path.join(root, "tsconfig.json"),
  };
  // The duplicate check's search workers (decision 422) are loaded from beside the bundle that
  // starts them: `new URL("./text-search-worker.js", import.meta.url)`.
  const searchWorker = path.join(root, "src/server/features/imports/text-search.worker.ts");
  await esbuild({
    ...common,
    entryPoints: [path.join(root, "src/server/main.ts")],
    outfile: path.join(root, "dist/server/main.js"),
  });
  await esbuild({
    ...common,
    entryPoints: [searchWorker],
    outfile: path.join(root, "dist/server/text-search-worker.js"),
  });
  if (fs.existsSync(path.join(root, "cli/index.ts"))) {
    await esbuild({
      ...common,
      entryPoints: [path.join(root, "cli/index.ts")],
      outfile: path.join(root, "dist/cli/index.js"),
    });
    await esbuild({
      ...common,
      entryPoints: [searchWorker],
      outfile: path.join(root, "dist/cli/text-search-worker.js"),
    });
  }
  if (webToo) {
    precompress(path.join(root, "dist", "web"));
    fs.mkdirSync(path.dirname(stampPath(root)), { recursive: true });
    fs.writeFileSync(stampPath(root), fingerprint);
  }
  if (!quiet) console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildAll({ webToo: !nodeOnly, quiet: process.argv.includes("--quiet") }).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
