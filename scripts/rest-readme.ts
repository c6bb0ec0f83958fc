/**
 * Writes the README's REST section from the contract table (src/server/rest/contract.ts):
 * `npx tsx scripts/rest-readme.ts`. The contract test fails while the two differ.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import prettier from "prettier";
import { README_BEGIN, README_END, renderRestReadme } from "../src/server/rest/contract";

const README = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "README.md");

/** The section as it stands in the README: the table's rendering, formatted as `npm run lint` wants it. */
export async function restReadmeSection(): Promise<string> {
  const options = (await prettier.resolveConfig(README)) ?? {};
  return (await prettier.format(renderRestReadme(), { ...options, parser: "markdown" })).trim();
}

async function main() {
  const readme = fs.readFileSync(README, "utf8");
  const start = readme.indexOf(README_BEGIN);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md lacks ${README_BEGIN} … ${README_END}`);
  const section = await restReadmeSection();
  const next = `${readme.slice(0, start + README_BEGIN.length)}\n\n${section}\n\n${readme.slice(end)}`;
  if (next === readme) console.log("README.md's REST section is up to date");
  else {
    fs.writeFileSync(README, next);
    console.log("README.md's REST section rewritten from src/server/rest/contract.ts");
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
