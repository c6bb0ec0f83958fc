import { defineConfig } from "@playwright/test";

// Every spec file gets a server of its own, on a free port, with a fresh copy of an empty database:
// the `server` fixture of e2e/fixtures.ts starts it (docs/decisions/065). So there is no webServer
// here, and no spec depends on another having run first.
export default defineConfig({
  testDir: "e2e",
  // Emptied at the start of every run; the servers' logs go to test-results/server-logs.
  outputDir: "test-results",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  // Two spec files at a time (a browser and a server each) on the two cores of CI.
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // Generous for a slow machine: on 2026-11-28 the CI machine ran at half its usual speed and eight
  // journeys ran past 30 s / 7 s (16db26a, which passed the day before, with them); a test that
  // waits for what never comes still fails, only later.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["./e2e/summary-reporter.ts"]],
  use: {
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
    { name: "app", teardown: "server-logs" },
    // Runs after the specs, however they were filtered, and reads every server's log of the run
    // for the passwords and tokens the specs used (issue 9 item 5, docs/decisions/066).
    { name: "server-logs", testMatch: /server-logs\.teardown\.ts$/ },
  ],
});
