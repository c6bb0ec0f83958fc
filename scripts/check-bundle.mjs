#!/usr/bin/env node
// Budget for what a phone downloads before the first screen (issue 8): the entry script, its static
// imports and modulepreloads, gzip-compressed. SheetJS and sql.js (the Anki reader's SQLite in WASM)
// must stay out of it (they load on the import screens only, when a file is chosen). Exits 1 above
// the budget, so CI fails.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const BUDGET_GZIP_BYTES = 150 * 1024;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const webDir = path.join(root, "dist", "web");
const indexPath = path.join(webDir, "index.html");
if (!fs.existsSync(indexPath)) {
  console.error("dist/web/index.html is missing: run `npm run build` first");
  process.exit(1);
}
const html = fs.readFileSync(indexPath, "utf8");
const queue = [
  ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
].map((m) => path.join(webDir, m[1]));

const initial = new Set();
while (queue.length > 0) {
  const file = queue.pop();
  if (initial.has(file)) continue;
  initial.add(file);
  const code = fs.readFileSync(file, "utf8");
  // Static imports only: `import{…}from"./x.js"` and `import"./x.js"`; dynamic import() is lazy.
  for (const m of code.matchAll(/(?:from|import)\s*"(\.\/[^"]+\.js)"/g)) {
    queue.push(path.join(path.dirname(file), m[1]));
  }
}

let total = 0;
const rows = [];
let sheetJsFound = false;
let sqlJsFound = false;
for (const file of initial) {
  const code = fs.readFileSync(file);
  const gz = zlib.gzipSync(code, { level: 9 }).length;
  total += gz;
  const name = path.relative(webDir, file);
  if (/SheetJS|xlsx/i.test(path.basename(file)) || code.includes("SheetJS")) sheetJsFound = true;
  if (/sql-wasm|anki-reader/i.test(path.basename(file)) || code.includes(".wasm"))
    sqlJsFound = true;
  rows.push(`${(gz / 1024).toFixed(1).padStart(8)} KB  ${name}`);
}
console.log(rows.sort().reverse().join("\n"));
console.log(
  `Initial JavaScript: ${(total / 1024).toFixed(1)} KB gzip in ${initial.size} files (budget ${BUDGET_GZIP_BYTES / 1024} KB)`,
);
if (sheetJsFound) console.error("SheetJS is in the initial JavaScript: it must be loaded lazily");
if (sqlJsFound)
  console.error("sql.js or its WASM is in the initial JavaScript: it must be loaded lazily");
// The WASM itself must never be preloaded by the page either.
if (/\.wasm/.test(html)) {
  sqlJsFound = true;
  console.error("index.html loads a .wasm file: the Anki reader's WASM must be loaded lazily");
}
if (total > BUDGET_GZIP_BYTES) console.error("Initial JavaScript is over budget");
process.exit(sheetJsFound || sqlJsFound || total > BUDGET_GZIP_BYTES ? 1 : 0);
