#!/usr/bin/env node
// `npm start`: builds once when dist/ is missing or older than the sources, then runs compiled JavaScript.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isBuildFresh } from "./fingerprint.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
if (!isBuildFresh(root)) {
  console.log("Building PRITE Study (first start or changed sources)...");
  const { buildAll } = await import("./build.mjs");
  await buildAll({ quiet: true });
}
await import(pathToFileURL(path.join(root, "dist/server/main.js")).href);
