#!/usr/bin/env node
// Builds the SPA (Vite) and bundles the server and CLI to plain JavaScript (esbuild).
// `--node-only` skips the SPA (the CLI needs only the Node bundles).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build as esbuild } from "esbuild";
import { sourceFingerprint, stampPath } from "./fingerprint.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nodeOnly = process.argv.includes("--node-only");

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
  await esbuild({
    ...common,
    entryPoints: [path.join(root, "src/server/main.ts")],
    outfile: path.join(root, "dist/server/main.js"),
  });
  if (fs.existsSync(path.join(root, "cli/index.ts"))) {
    await esbuild({
      ...common,
      entryPoints: [path.join(root, "cli/index.ts")],
      outfile: path.join(root, "dist/cli/index.js"),
    });
  }
  if (webToo) {
    fs.mkdirSync(path.dirname(stampPath(root)), { recursive: true });
    fs.writeFileSync(stampPath(root), fingerprint);
  }
  if (!quiet) console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildAll({ webToo: !nodeOnly }).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
