import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GOLDEN_DATA_DIR_ENV, ROOT, SERVER_LOG_DIR, startServer } from "./server";

/**
 * Once per run: checks the build exists, then starts the server once on an empty folder so it creates
 * and migrates a database, and stops it. Every spec's server starts from a copy of that folder: a
 * fresh, empty database without paying PGlite's first start (about 10 s) ten times over
 * (docs/decisions/065). The returned function is the global teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const file of ["dist/server/main.js", "dist/web/index.html"]) {
    if (!fs.existsSync(path.join(ROOT, file))) {
      throw new Error(
        `${file} is missing: run \`npm run build\` first (\`npm run test:e2e\` does).`,
      );
    }
  }
  const golden = fs.mkdtempSync(path.join(os.tmpdir(), "prite-e2e-golden-"));
  const server = await startServer({
    logFile: path.join(SERVER_LOG_DIR, "golden-image.log"),
    dataDir: golden,
  });
  await server.stop();
  process.env[GOLDEN_DATA_DIR_ENV] = golden;
  return async () => {
    fs.rmSync(golden, { recursive: true, force: true });
  };
}
