import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const root = path.dirname(new URL(import.meta.url).pathname);
const PORT = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${PORT}`;

// Every run gets its own empty database. Workers evaluate this file again, so the folder chosen by
// the first evaluation is kept in the environment they inherit.
const isWorker = process.env.TEST_WORKER_INDEX !== undefined;
if (!process.env.PRITE_E2E_RUN_DIR) {
  process.env.PRITE_E2E_RUN_DIR = path.join(root, ".tmp", `e2e-${Date.now()}`);
}
const runDir = process.env.PRITE_E2E_RUN_DIR;

if (!isWorker) {
  for (const file of ["dist/server/main.js", "dist/web/index.html"]) {
    if (!fs.existsSync(path.join(root, file))) {
      throw new Error(
        `${file} is missing: run \`npm run build\` first (\`npm run test:e2e\` does).`,
      );
    }
  }
  pruneOldRuns(path.join(root, ".tmp"), runDir);
  fs.mkdirSync(runDir, { recursive: true });
}

/** Old run folders hold a whole database each; keep only the last hour's, for debugging. */
function pruneOldRuns(tmp: string, keep: string) {
  if (!fs.existsSync(tmp)) return;
  const cutoff = Date.now() - 60 * 60 * 1000;
  for (const name of fs.readdirSync(tmp)) {
    const dir = path.join(tmp, name);
    if (!name.startsWith("e2e-") || dir === keep) continue;
    try {
      if (fs.statSync(dir).mtimeMs < cutoff) fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // another run may be using or removing it
    }
  }
}

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  // The machine has two cores and one server process: one browser at a time keeps timings honest.
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [["list"], ["./e2e/summary-reporter.ts"]],
  use: {
    baseURL,
    // The product is used on phones first.
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    locale: "en-US",
    timezoneId: "America/New_York",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's Chromium: Playwright never downloads a browser here.
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    // The journey registers the first account of the fresh database (which becomes the admin),
    // so it runs before every other spec; fixtures hand that admin to later specs.
    { name: "first-user", testMatch: /auth\.spec\.ts$/ },
    { name: "app", testIgnore: /auth\.spec\.ts$/, dependencies: ["first-user"] },
  ],
  webServer: {
    command: "node dist/server/main.js",
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: path.join(runDir, "data"),
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      // Never inherit a developer's database or AI key: the run must be local and deterministic.
      DATABASE_URL: "",
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
      ALLOWED_ORIGINS: "",
    },
  },
});
