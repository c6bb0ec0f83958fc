import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const INPUTS = [
  "src",
  "cli",
  "drizzle",
  "index.html",
  "public",
  "vite.config.ts",
  "package.json",
  "package-lock.json",
];

/** A cheap fingerprint of the sources (paths, sizes, mtimes) that decides whether dist/ is stale. */
export function sourceFingerprint(root) {
  const h = crypto.createHash("sha256");
  const visit = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) {
        if (name === "node_modules" || name.endsWith(".test.ts") || name === "routeTree.gen.ts")
          continue;
        visit(path.join(p, name));
      }
    } else {
      h.update(`${path.relative(root, p)}:${st.size}:${Math.floor(st.mtimeMs)}\n`);
    }
  };
  for (const input of INPUTS) visit(path.join(root, input));
  return h.digest("hex");
}

export const stampPath = (root) => path.join(root, "dist", ".build-stamp");

export function isBuildFresh(root) {
  if (!fs.existsSync(path.join(root, "src")))
    return fs.existsSync(path.join(root, "dist", "server", "main.js"));
  try {
    return fs.readFileSync(stampPath(root), "utf8") === sourceFingerprint(root);
  } catch {
    return false;
  }
}
