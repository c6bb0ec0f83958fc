#!/usr/bin/env node
// The house rules a linter does not keep (run by `npm run lint`, docs/decisions/310):
//   1. no non-test source file (*.ts, *.tsx) in src/ or cli/ is over 600 lines;
//   2. no import cycle among the project's own TypeScript files in src/ and cli/;
//   3. no source file sends its reader to a document outside the repository ("SPEC §…", "DESIGN §…",
//      ../shared/): a clone has only docs/, where the product rules live (docs/product/).
// Exits 1 listing every offender, else 0.
//   node scripts/check-house.mjs [ROOT]   (ROOT: the project folder, by default the current one)
//
// Imports are read with TypeScript's own pre-processor rather than a regular expression, so that an
// import written in a comment or a string is not one, and a regular expression literal holding a quote
// does not hide the imports after it. Type-only imports, `export … from` and dynamic `import()` all
// count: each is an edge a newcomer has to follow.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const MAX_LINES = 600;
const DIRS = ["src", "cli"];
const SOURCE = /\.(?:ts|tsx)$/;
const RESOLVED = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

function walk(dir, out) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(full, out);
    } else if (entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      out.push(full);
    }
  }
  return out;
}

/** Tests, generated files and test support under a test/ folder may be long. */
export function isLengthExempt(relativePath) {
  const parts = relativePath.split(/[\\/]/);
  const name = parts.at(-1) ?? "";
  return name.includes(".test.") || name.endsWith(".gen.ts") || parts.slice(0, -1).includes("test");
}

// Written in two pieces so that this file does not cite them itself.
const OUTSIDE_CITATION = new RegExp(
  ["\\b(?:SPEC|DESIGN)(?:\\.md)? ", "\u00a7|\\.\\./shared/"].join(""),
);

function lineCount(text) {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

/** The project file an import names, or null for a package or a file outside src/ and cli/. */
function resolveImport(root, from, specifier, known) {
  // A bundler query (`?url`, `?worker`) names the same file.
  const query = specifier.indexOf("?");
  const bare = query === -1 ? specifier : specifier.slice(0, query);
  let base;
  if (bare.startsWith("./") || bare.startsWith("../"))
    base = path.resolve(path.dirname(from), bare);
  else if (bare.startsWith("@/")) base = path.resolve(root, "src", bare.slice(2));
  else return null;
  const stripped = base.replace(/\.(?:js|mjs|jsx)$/, "");
  for (const candidate of [
    ...RESOLVED.map((ext) => base + ext),
    stripped + ".ts",
    stripped + ".tsx",
  ])
    if (known.has(candidate)) return candidate;
  return null;
}

/** Tarjan's strongly connected components of more than one file. */
function stronglyConnected(nodes, edges) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return components;
}

/** A shortest cycle through `start` inside its component, to show the reader one path to break. */
function cycleThrough(start, component, edges) {
  const inside = new Set(component);
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of edges.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = previous.get(v); p !== null; p = previous.get(p)) path.unshift(p);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/**
 * The offenders under `root`: long files ({file, lines}) and cycles (each a list of files, the first
 * repeated at the end), paths relative to `root` with forward slashes, in a stable order.
 */
export function checkHouse(root, { maxLines = MAX_LINES } = {}) {
  const absoluteRoot = path.resolve(root);
  const rel = (file) => path.relative(absoluteRoot, file).split(path.sep).join("/");
  const files = DIRS.flatMap((dir) => walk(path.join(absoluteRoot, dir), [])).sort();
  const known = new Set(files);
  const longFiles = [];
  const outsideCitations = [];
  const edges = new Map();
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    const lines = lineCount(text);
    if (lines > maxLines && !isLengthExempt(rel(file))) longFiles.push({ file: rel(file), lines });
    text.split("\n").forEach((line, index) => {
      if (OUTSIDE_CITATION.test(line)) outsideCitations.push({ file: rel(file), line: index + 1 });
    });
    const targets = new Set();
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const target = resolveImport(absoluteRoot, file, fileName, known);
      if (target !== null && target !== file) targets.add(target);
    }
    edges.set(file, [...targets].sort());
  }
  const cycles = stronglyConnected(files, edges).map((component) => {
    const first = [...component].sort()[0];
    return {
      files: component.map(rel).sort(),
      path: cycleThrough(first, component, edges).map(rel),
    };
  });
  cycles.sort((a, b) => (a.path[0] < b.path[0] ? -1 : 1));
  return { longFiles, cycles, outsideCitations };
}

function main() {
  const root = process.argv[2] ?? process.cwd();
  const { longFiles, cycles, outsideCitations } = checkHouse(root);
  for (const { file, lines } of longFiles)
    console.error(`${file}: ${lines} lines (at most ${MAX_LINES} in a non-test source file)`);
  for (const cycle of cycles) {
    const more =
      cycle.files.length > cycle.path.length - 1
        ? ` (${cycle.files.length} files: ${cycle.files.join(", ")})`
        : "";
    console.error(`import cycle: ${cycle.path.join(" -> ")}${more}`);
  }
  for (const { file, line } of outsideCitations)
    console.error(
      `${file}:${line}: cites a document outside the repository; point at docs/ instead`,
    );
  if (longFiles.length > 0 || cycles.length > 0 || outsideCitations.length > 0) {
    console.error(
      `check-house: ${longFiles.length} file(s) over ${MAX_LINES} lines, ${cycles.length} import cycle(s), ${outsideCitations.length} citation(s) outside the repository`,
    );
    process.exit(1);
  }
  console.log(
    `check-house: no file over ${MAX_LINES} lines, no import cycle, no citation outside the repository`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
