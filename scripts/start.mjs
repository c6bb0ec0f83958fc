#!/usr/bin/env node
// `npm start`: builds once when dist/ is missing or older than the sources, then runs compiled JavaScript.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isBuildFresh } from "./fingerprint.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
if (!isBuildFresh(root)) {
  console.log("Building PRITE Study (first start or changed sources)...");
  // In a child process: Vite, Rollup and esbuild leave hundreds of MB behind in the process that ran
  // them (1.05 GB RSS after a first start, issue 20); the server starts with none of it.
  const build = spawnSync(process.execPath, [path.join(root, "scripts", "build.mjs"), "--quiet"], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) {
    console.error("The build failed; see the messages above.");
    process.exit(build.status ?? 1);
  }
}
await import(pathToFileURL(path.join(root, "dist/server/main.js")).href);
