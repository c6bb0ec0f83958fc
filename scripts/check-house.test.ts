import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkHouse } from "./check-house.mjs";

const SCRIPT = path.join(import.meta.dirname, "check-house.mjs");
const trees: string[] = [];

/** A project folder holding `files` (path → text). */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "check-house-"));
  trees.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

function check(root: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: "utf8" });
  return { status: run.status, output: run.stdout + run.stderr };
}

const lines = (n: number): string =>
  Array.from({ length: n }, (_, i) => `export const v${i} = ${i};\n`).join("");

afterEach(() => {
  for (const root of trees.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

describe("scripts/check-house.mjs", () => {
  it("passes a tree without long files or cycles, whatever its tests and comments say", () => {
    const root = tree({
      "src/a.ts": 'import { b } from "./b";\nexport const a = b;\n',
      "src/b.ts": 'import type { C } from "@/core/c";\nexport const b: C = 1;\n',
      // An import in a comment or a string, or after a regular expression holding a quote, is no edge.
      "src/core/c.ts":
        'const quote = /["\']/;\n// import { a } from "../a";\nconst s = `import("../b")`;\nexport type C = number;\nexport { quote, s };\n',
      "src/core/c.test.ts": 'import "../a";\n' + lines(900),
      "src/server/test/harness.ts": lines(700),
      "src/web/routeTree.gen.ts": lines(700),
      "src/exactly.ts": lines(600),
      "cli/main.ts": 'import { a } from "../src/a";\nexport default a;\n',
    });
    expect(checkHouse(root)).toEqual({ longFiles: [], cycles: [], outsideCitations: [] });
  });

  it("finds a line that sends the reader to a document outside the repository", () => {
    const section = ["SPEC", "\u00a75"].join(" ");
    const root = tree({
      "src/core/rules.ts": `// The rules of docs/product/validation.md.\nexport const a = 1; // ${section}\n`,
      "cli/x.ts": "// see ../shared/DESIGN.md\nexport const x = 1;\n",
    });
    expect(checkHouse(root).outsideCitations).toEqual([
      { file: "cli/x.ts", line: 1 },
      { file: "src/core/rules.ts", line: 2 },
    ]);
    expect(check(root)).toMatchObject({ status: 1 });
  });

  it("finds a source file over 600 lines", () => {
    const root = tree({
      "src/exactly.ts": lines(600),
      "cli/commands/long.ts": lines(601),
      // The last line without its newline still counts.
      "src/web/page.tsx": lines(650).slice(0, -1),
    });
    expect(checkHouse(root).longFiles).toEqual([
      { file: "cli/commands/long.ts", lines: 601 },
      { file: "src/web/page.tsx", lines: 650 },
    ]);
  });

  it("finds import cycles through a type-only import, an alias, a dynamic import and a re-export", () => {
    const root = tree({
      "src/web/lib/trpc.ts": 'import type { Early } from "./early-data";\nexport type T = Early;\n',
      "src/web/lib/early-data.ts":
        'export type Early = number;\nexport const load = () => import("@/web/lib/trpc");\n',
      "cli/commands/import.ts": 'export { anki } from "./import-anki";\n',
      "cli/commands/import-anki.ts": 'import "./shared";\nexport const anki = 1;\n',
      "cli/commands/shared.ts": 'import { anki } from "./import";\nexport const s = anki;\n',
      "cli/commands/other.ts": 'import { s } from "./shared";\nexport const o = s;\n',
    });
    expect(checkHouse(root).cycles).toEqual([
      {
        files: ["cli/commands/import-anki.ts", "cli/commands/import.ts", "cli/commands/shared.ts"],
        path: [
          "cli/commands/import-anki.ts",
          "cli/commands/shared.ts",
          "cli/commands/import.ts",
          "cli/commands/import-anki.ts",
        ],
      },
      {
        files: ["src/web/lib/early-data.ts", "src/web/lib/trpc.ts"],
        path: ["src/web/lib/early-data.ts", "src/web/lib/trpc.ts", "src/web/lib/early-data.ts"],
      },
    ]);
  });

  // Two processes that each load TypeScript: slow on a busy machine, hence the longer timeout.
  it("as a command, exits 1 listing the offenders, and 0 on a clean tree", () => {
    const offending = check(
      tree({
        "src/long.ts": lines(601),
        "src/a.ts": 'import "./b";\n',
        "src/b.ts": 'import "./a";\n',
      }),
    );
    expect(offending.status).toBe(1);
    expect(offending.output).toContain("src/long.ts: 601 lines");
    expect(offending.output).toContain("import cycle: src/a.ts -> src/b.ts -> src/a.ts");
    const clean = check(tree({ "src/a.ts": 'import "./b";\n', "src/b.ts": "export {};\n" }));
    expect(clean.output).toContain("no file over 600 lines, no import cycle");
    expect(clean.status).toBe(0);
  }, 90_000);
});
