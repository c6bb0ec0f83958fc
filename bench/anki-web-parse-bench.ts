/**
 * The web's parse of an Anki deck in Chromium (issue 17 §6: ≤ 5 s for the 20,000-note deck with 200
 * images). The Anki tab's own module (src/web/components/import/anki-reader.ts: read the package with
 * sql.js in WASM, convert the notes, plan the import) is bundled for the browser, served with the WASM
 * and the generated deck (bench/anki-deck.ts) from a local server, and timed in Debian's Chromium from
 * the bytes in memory to the review step's plan. Each run is a fresh page, so the WASM is fetched and
 * compiled every time, as on a resident's first deck.
 *
 *   npx tsx bench/anki-web-parse-bench.ts [--notes 20000] [--images 200] [--runs 3]
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { chromium } from "@playwright/test";
import { benchDeck } from "./anki-deck";

const { values: args } = parseArgs({
  options: {
    notes: { type: "string", default: "20000" },
    images: { type: "string", default: "200" },
    runs: { type: "string", default: "3" },
  },
});
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-anki-web-"));

const deck = await benchDeck(Number(args.notes), Number(args.images));
fs.writeFileSync(path.join(dir, "deck.apkg"), deck);
fs.copyFileSync(
  path.join(ROOT, "node_modules/sql.js/dist/sql-wasm-browser.wasm"),
  path.join(dir, "sql-wasm.wasm"),
);
fs.writeFileSync(
  path.join(dir, "entry.ts"),
  `import { readDeck, planDeck } from ${JSON.stringify(path.join(ROOT, "src/web/components/import/anki-reader.ts"))};
(window as any).parseDeck = async (bytes: Uint8Array) => {
  const pkg = await readDeck(bytes);
  const plan = planDeck(pkg, { part: "1", year: 2026 });
  return plan.counts;
};`,
);
await build({
  entryPoints: [path.join(dir, "entry.ts")],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  outfile: path.join(dir, "bundle.js"),
  tsconfig: path.join(ROOT, "tsconfig.json"),
  logLevel: "error",
  plugins: [
    {
      // Vite's `?url` import: the web gets the WASM's address; here it is served beside the page.
      name: "wasm-url",
      setup(b) {
        b.onResolve({ filter: /\.wasm\?url$/ }, () => ({
          path: "wasm-url",
          namespace: "wasm-url",
        }));
        b.onLoad({ filter: /.*/, namespace: "wasm-url" }, () => ({
          contents: 'export default "/sql-wasm.wasm";',
          loader: "js",
        }));
      },
    },
  ],
});
fs.writeFileSync(
  path.join(dir, "index.html"),
  '<!doctype html><meta charset="utf-8"><script type="module" src="/bundle.js"></script>',
);

const types: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".wasm": "application/wasm",
  ".apkg": "application/octet-stream",
};
const server = http.createServer((req, res) => {
  const file = path.join(
    dir,
    path.basename(new URL(req.url ?? "/", "http://x").pathname) || "index.html",
  );
  if (!fs.existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
  fs.createReadStream(file).pipe(res);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = (server.address() as { port: number }).port;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
const times: number[] = [];
let counts: unknown = null;
try {
  for (let run = 0; run < Number(args.runs); run++) {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/index.html`);
    await page.waitForFunction(() => "parseDeck" in window);
    const result = await page.evaluate(async () => {
      const bytes = new Uint8Array(await (await fetch("/deck.apkg")).arrayBuffer());
      const started = performance.now();
      const counted = await (
        window as unknown as { parseDeck(b: Uint8Array): Promise<unknown> }
      ).parseDeck(bytes);
      return { ms: performance.now() - started, counted };
    });
    times.push(result.ms);
    counts = result.counted;
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)]!;
console.log(
  `Deck: ${args.notes} notes, ${args.images} images, ${(deck.length / 1e6).toFixed(1)} MB; plan counts ${JSON.stringify(counts)}`,
);
console.log(
  `Parse in Chromium (read + convert + plan): runs ${times.map((t) => (t / 1000).toFixed(2)).join(", ")} s; median ${(median / 1000).toFixed(2)} s (goal ≤ 5 s: ${median <= 5000 ? "met" : "NOT met"})`,
);
