import fs from "node:fs";
import path from "node:path";

/**
 * The Node flags `npm start` gives the server (package.json's start script, `node <flags>
 * scripts/start.mjs`, decision 210), so a bench runs the built server as that command does, without
 * npm's own process. A checkout whose start script has none answers [].
 */
export function npmStartFlags(root: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.trim().split(/\s+/);
  const script = words.indexOf("scripts/start.mjs");
  return words[0] === "node" && script > 0 ? words.slice(1, script) : [];
}
