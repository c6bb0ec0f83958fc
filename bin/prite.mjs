#!/usr/bin/env node
// The `prite` command: runs the bundled CLI, building the Node bundles first when sources changed.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// A reader that went away (`prite … | head`) ends the command quietly, as git and gh do: no stack
// trace, and the status of a process ended by SIGPIPE, so `set -o pipefail` sees it did not finish
// (docs/decisions/280). Node ignores SIGPIPE itself, so the failed write is the only sign.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err) => {
    if (err.code === "EPIPE") process.exit(141);
    throw err;
  });
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundle = path.join(root, "dist/cli/index.js");
const stamp = path.join(root, "dist/.cli-stamp");
if (!process.env.PRITE_ROOT) process.env.PRITE_ROOT = root;
// Same default data folder as `npm start`, wherever the command is run from.
if (!process.env.DATA_DIR && !process.env.DATABASE_URL)
  process.env.DATA_DIR = path.join(root, "data");

const lockDir = path.join(root, "dist/.cli-build.lock");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function upToDate(fingerprint) {
  return (
    fs.existsSync(bundle) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === fingerprint
  );
}

/**
 * One build at a time: two `prite` commands started together after a source change (a script, a test
 * run) would otherwise both rewrite dist/cli while the other loads it. The loser waits for the winner
 * and then uses its bundle; a lock older than two minutes is from a build that died and is taken over.
 */
async function ensureBuilt() {
  if (!fs.existsSync(path.join(root, "src"))) return;
  const { sourceFingerprint } = await import("../scripts/fingerprint.mjs");
  const fingerprint = sourceFingerprint(root);
  if (upToDate(fingerprint)) return;
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      let age = 0;
      try {
        age = Date.now() - fs.statSync(lockDir).mtimeMs;
      } catch {
        continue; // released just now
      }
      if (age > 120_000) fs.rmSync(lockDir, { recursive: true, force: true });
      else await sleep(200);
    }
  }
  try {
    const current = sourceFingerprint(root);
    if (upToDate(current)) return;
    const { buildAll } = await import("../scripts/build.mjs");
    await buildAll({ webToo: false, quiet: true });
    fs.writeFileSync(stamp, current);
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

await ensureBuilt();
const { main } = await import(pathToFileURL(bundle).href);
await main(process.argv);
