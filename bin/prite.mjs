#!/usr/bin/env node
// The `prite` command: runs the bundled CLI, building the Node bundles first when sources changed.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundle = path.join(root, "dist/cli/index.js");
const stamp = path.join(root, "dist/.cli-stamp");
if (!process.env.PRITE_ROOT) process.env.PRITE_ROOT = root;
// Same default data folder as `npm start`, wherever the command is run from.
if (!process.env.DATA_DIR && !process.env.DATABASE_URL)
  process.env.DATA_DIR = path.join(root, "data");

async function ensureBuilt() {
  if (!fs.existsSync(path.join(root, "src"))) return;
  const { sourceFingerprint } = await import("../scripts/fingerprint.mjs");
  const fingerprint = sourceFingerprint(root);
  if (
    fs.existsSync(bundle) &&
    fs.existsSync(stamp) &&
    fs.readFileSync(stamp, "utf8") === fingerprint
  )
    return;
  const { buildAll } = await import("../scripts/build.mjs");
  await buildAll({ webToo: false, quiet: true });
  fs.writeFileSync(stamp, fingerprint);
}

await ensureBuilt();
const { main } = await import(pathToFileURL(bundle).href);
await main(process.argv);
