#!/usr/bin/env node
/**
 * One-shot (issue 31, "The house" item 6): the product rules moved from the specification and design
 * files outside the repository into docs/product/*.md and docs/ARCHITECTURE.md. This rewrites every
 * citation of a section of those two files, in comments and string literals only, into the path that
 * now holds the rule:
 *
 *   SPEC 1, 2 → docs/product/screens.md      DESIGN 4 → docs/product/data.md
 *   SPEC 3    → docs/product/data.md         DESIGN 5 → docs/product/scheduling.md
 *   SPEC 4    → docs/product/states.md       DESIGN 6 → docs/product/rest-api.md
 *   SPEC 5    → docs/product/validation.md   DESIGN 7 → docs/product/product-decisions.md
 *   SPEC 6    → docs/product/roles.md        DESIGN 1-3, 8-11 → docs/ARCHITECTURE.md
 *   SPEC 7    → docs/product/rest-api.md     the files themselves: SPEC.md → docs/product/README.md,
 *   SPEC 8    → docs/product/errors.md                             DESIGN.md → docs/ARCHITECTURE.md
 *   SPEC 9    → docs/product/constants.md
 *
 * A list of sections becomes a list of files ("(SPEC 2, 4)" with section signs reads
 * "(docs/product/screens.md and states.md)"); a bare section sign later in the same comment belongs to the
 * file named last (never to an issue's or a decision's sections). Code is parsed with TypeScript, so only
 * comments and string literals can change (and the prose of Markdown notes kept beside the code).
 *
 *   node scripts/repoint-rule-citations.mjs            rewrite the files, print a summary
 *   node scripts/repoint-rule-citations.mjs --dry-run  print the summary only
 *
 * Afterwards, if src/server/rest/contract.ts changed, regenerate the README's REST section
 * (`npx tsx scripts/rest-readme.ts`): the contract test compares the two.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SELF = fileURLToPath(import.meta.url);
const FOLDERS = ["src", "cli", "e2e", "bench", "scripts"];
const EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".md"]);
const SKIP_DIRS = new Set(["node_modules", "dist", ".git"]);
const SIGN = "\u00a7";

const PRODUCT = "docs/product/";
const ARCHITECTURE = "docs/ARCHITECTURE.md";
const SPEC_TARGETS = {
  1: "screens.md",
  2: "screens.md",
  3: "data.md",
  4: "states.md",
  5: "validation.md",
  6: "roles.md",
  7: "rest-api.md",
  8: "errors.md",
  9: "constants.md",
};
const DESIGN_TARGETS = {
  4: "data.md",
  5: "scheduling.md",
  6: "rest-api.md",
  7: "product-decisions.md",
};

/** The repository path for a section of SPEC or DESIGN, or null for a section that does not exist. */
function target(doc, section) {
  if (doc === "SPEC") return SPEC_TARGETS[section] ? PRODUCT + SPEC_TARGETS[section] : null;
  if (DESIGN_TARGETS[section]) return PRODUCT + DESIGN_TARGETS[section];
  return section >= 1 && section <= 11 ? ARCHITECTURE : null;
}

// One scan over a comment or string: a named section ("SPEC <sign>5", "DESIGN.md <sign>7", the file's
// path from the project root with "<sign>2.1"), a file named alone ("SPEC.md"), a bare section sign, or a word
// that hands the following bare signs to something else ("issue 17 <sign>6", "decision 150").
const TOKEN = new RegExp(
  [
    `(?<named>(?:\\.\\.\\/)?(?:shared\\/)?(?<doc>SPEC|DESIGN)(?:\\.md)? ?${SIGN} ?(?<sec>\\d+)(?:\\.\\d+)*)`,
    `(?<file>(?:\\.\\.\\/)?(?:shared\\/)?(?<fdoc>SPEC|DESIGN)\\.md\\b)`,
    `(?<bare>${SIGN} ?(?<bsec>\\d+)(?:\\.\\d+)*)`,
    `(?<other>\\b(?:[Ii]ssues?|[Dd]ecisions?|ARCHITECTURE|README|COORDINATION|RFC)\\b)`,
  ].join("|"),
  "g",
);
/** What may stand between two citations of one list: a comma, a slash, a semicolon, "and". */
const LIST_GAPS = new Set(["", ",", "/", ";", "&", "and", ",and"]);
const isListGap = (between) => LIST_GAPS.has(between.replace(/[\s*]/g, ""));

/** "a", "a and b", "a, b and c"; a file beside the previous one in docs/product/ is named without the folder. */
function formatList(paths, previousDir) {
  let dir = previousDir;
  const names = paths.map((p) => {
    const pDir = p.slice(0, p.lastIndexOf("/") + 1);
    const name = pDir === dir && pDir === PRODUCT ? p.slice(pDir.length) : p;
    dir = pDir;
    return name;
  });
  if (names.length === 1) return names[0];
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Rewrites the citations in one comment or string; returns the text and how many citations changed. */
export function rewriteCitations(text, counts = new Map()) {
  const found = [];
  let owner = null;
  for (const m of text.matchAll(TOKEN)) {
    const g = m.groups;
    if (g.other) {
      owner = null;
      continue;
    }
    let p = null;
    let explicit = true;
    if (g.named) {
      owner = g.doc;
      p = target(g.doc, Number(g.sec));
    } else if (g.file) {
      owner = g.fdoc;
      p = g.fdoc === "SPEC" ? `${PRODUCT}README.md` : ARCHITECTURE;
    } else if (g.bare && owner) {
      p = target(owner, Number(g.bsec));
      explicit = false;
    }
    if (p) found.push({ start: m.index, end: m.index + m[0].length, path: p, explicit });
  }
  if (found.length === 0) return { text, changed: 0 };

  // Consecutive citations separated only by list punctuation become one list.
  const groups = [];
  for (const c of found) {
    const last = groups.at(-1);
    if (last && isListGap(text.slice(last.at(-1).end, c.start))) last.push(c);
    else groups.push([c]);
  }

  let out = "";
  let at = 0;
  let previousDir = null;
  for (const group of groups) {
    const paths = [...new Set(group.map((c) => c.path))];
    for (const c of group) counts.set(c.path, (counts.get(c.path) ?? 0) + 1);
    let before = text.slice(at, group[0].start);
    // "the fields of <citation>" reads "the fields in docs/product/…".
    if (group[0].explicit) before = before.replace(/\bof $/, "in ");
    out += before + formatList(paths, group[0].explicit ? null : previousDir);
    const lastPath = paths.at(-1);
    previousDir = lastPath.slice(0, lastPath.lastIndexOf("/") + 1);
    at = group.at(-1).end;
  }
  return { text: out + text.slice(at), changed: found.length };
}

const STRING_KINDS = new Set([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.TemplateMiddle,
  ts.SyntaxKind.TemplateTail,
]);

function scriptKind(file) {
  const ext = path.extname(file);
  if (ext === ".tsx") return ts.ScriptKind.TSX;
  if (ext === ".jsx") return ts.ScriptKind.JSX;
  if ([".js", ".mjs", ".cjs"].includes(ext)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** The [start, end) ranges of every comment and string literal of a source file (all of a Markdown file). */
function citableRanges(file, source) {
  if (path.extname(file) === ".md") return [[0, source.length]];
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, scriptKind(file));
  const comments = new Map();
  const strings = [];
  const jsxText = [];
  const addComments = (ranges) => {
    for (const r of ranges ?? []) comments.set(r.pos, r.end);
  };
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.JsxText) {
      jsxText.push([node.pos, node.end]);
      return;
    }
    addComments(ts.getLeadingCommentRanges(source, node.getFullStart()));
    addComments(ts.getTrailingCommentRanges(source, node.getEnd()));
    if (STRING_KINDS.has(node.kind)) strings.push([node.getStart(sf), node.getEnd()]);
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  // JSX text is not trivia: "//" inside it is not a comment.
  const inJsxText = (pos) => jsxText.some(([s, e]) => pos >= s && pos < e);
  const ranges = [...comments].filter(([pos]) => !inJsxText(pos)).concat(strings);
  return ranges.sort((a, b) => a[0] - b[0]);
}

function rewriteFile(file, counts) {
  const source = fs.readFileSync(file, "utf8");
  if (!/SPEC|DESIGN/.test(source)) return 0;
  let out = "";
  let at = 0;
  let changed = 0;
  for (const [start, end] of citableRanges(file, source)) {
    if (start < at) continue;
    const r = rewriteCitations(source.slice(start, end), counts);
    if (r.changed === 0) continue;
    out += source.slice(at, start) + r.text;
    at = end;
    changed += r.changed;
  }
  if (changed === 0) return 0;
  return { text: out + source.slice(at), changed };
}

function* sourceFiles(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (EXTENSIONS.has(path.extname(entry.name)) && full !== SELF) yield full;
  }
}

function main() {
  const dryRun = process.argv.includes("--dry-run");
  const counts = new Map();
  const changedFiles = [];
  let total = 0;
  for (const folder of FOLDERS) {
    for (const file of sourceFiles(path.join(ROOT, folder))) {
      const r = rewriteFile(file, counts);
      if (!r) continue;
      if (!dryRun) fs.writeFileSync(file, r.text);
      changedFiles.push(path.relative(ROOT, file));
      total += r.changed;
    }
  }
  console.log(
    `${dryRun ? "Would rewrite" : "Rewrote"} ${total} citations in ${changedFiles.length} files:`,
  );
  for (const [p, n] of [...counts].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(n).padStart(4)}  ${p}`);

  // Anything left that looks like a citation sits in code, not in a comment or a string: say where.
  const left = [];
  const pattern = new RegExp(`(SPEC|DESIGN)(\\.md)? ?${SIGN}|shared\\/(SPEC|DESIGN)`);
  for (const folder of FOLDERS) {
    for (const file of sourceFiles(path.join(ROOT, folder))) {
      const lines = fs.readFileSync(file, "utf8").split("\n");
      lines.forEach((line, i) => {
        if (pattern.test(line)) left.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
    }
  }
  if (left.length > 0 && !dryRun) {
    console.log(
      `${left.length} lines still cite SPEC or DESIGN (not comments or strings; check by hand):`,
    );
    for (const l of left) console.log(`  ${l}`);
  }
  if (changedFiles.includes(path.join("src", "server", "rest", "contract.ts")) && !dryRun) {
    console.log(
      "src/server/rest/contract.ts changed: run `npx tsx scripts/rest-readme.ts` to regenerate README.md's REST section.",
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === SELF) main();
