/**
 * Lighthouse (issue 8 item 4): the npm `lighthouse` 12.x with Debian's Chromium, mobile profile
 * (Lighthouse's default: Moto G Power emulation, simulated slow 4G and 4× CPU slowdown), on Sign In,
 * Dashboard and Study, against the built server with a fresh embedded database and the demo bank.
 * Goals: Performance ≥ 95, CLS ≤ 0.1, TBT ≤ 200 ms. Appends to bench/RESULTS.md.
 *
 *   npx tsx bench/lighthouse.ts [--no-record]
 *
 * Lighthouse is not a project dependency (it is large and only this script uses it): set
 * LIGHTHOUSE_BIN to an installed `lighthouse` binary, or the script runs `npx --yes lighthouse@12.8.2`.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO_BANK } from "../src/server/features/seed/demo-bank";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const PORT = 3984;
const BASE = `http://127.0.0.1:${PORT}`;

interface Score {
  page: string;
  performance: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  interactiveMs: number;
}

const CHROME_FLAGS =
  "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync";

/**
 * `profile`: a Chromium profile kept between runs and Lighthouse's storage reset off, so a second run is
 * a repeat visit (service worker installed, shell precached: issue 18 item 7).
 */
function lighthouse(url: string, cookie: string | null, out: string, profile?: string): Score {
  const bin = process.env.LIGHTHOUSE_BIN;
  const lhArgs = [
    url,
    "--quiet",
    "--only-categories=performance",
    "--output=json",
    `--output-path=${out}`,
    "--chrome-path=/usr/bin/chromium",
    `--chrome-flags=${CHROME_FLAGS}${profile ? ` --user-data-dir=${profile}` : ""}`,
  ];
  if (profile) lhArgs.push("--disable-storage-reset");
  if (cookie) lhArgs.push(`--extra-headers=${JSON.stringify({ Cookie: cookie })}`);
  const run = bin
    ? spawnSync(bin, lhArgs, { encoding: "utf8" })
    : spawnSync("npx", ["--yes", "lighthouse@12.8.2", ...lhArgs], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`lighthouse failed: ${run.stderr}`);
  const report = JSON.parse(fs.readFileSync(out, "utf8")) as {
    categories: { performance: { score: number } };
    audits: Record<string, { numericValue: number }>;
  };
  return {
    page: url.replace(BASE, "") || "/",
    performance: Math.round(report.categories.performance.score * 100),
    lcpMs: report.audits["largest-contentful-paint"]!.numericValue,
    fcpMs: report.audits["first-contentful-paint"]!.numericValue,
    tbtMs: report.audits["total-blocking-time"]!.numericValue,
    cls: report.audits["cumulative-layout-shift"]!.numericValue,
    interactiveMs: report.audits.interactive?.numericValue ?? NaN,
  };
}

const noRecord = process.argv.includes("--no-record");

async function main() {
  spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-lh-"));
  const server = spawn(process.execPath, [path.join(ROOT, "dist", "server", "main.js")], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${BASE}/api/health`)).ok) break;
      } catch {
        // starting
      }
      if (i > 600) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    const reg = await fetch(`${BASE}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        username: "lighthouse",
        email: "lighthouse@example.test",
        password: "a long password",
        confirmPassword: "a long password",
        pgyLevel: "2",
      }),
    });
    const { token } = (await reg.json()) as { token: string };
    await fetch(`${BASE}/api/questions/bulk`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-auth-token": token },
      body: JSON.stringify({ questions: DEMO_BANK.map((q) => ({ ...q, year: 2024 })) }),
    });
    const cookie = `prite_session=${token}`;
    // Reports stay in the system's temporary folder for the diagnostics behind each score.
    const reports = fs.mkdtempSync(path.join(os.tmpdir(), "prite-lh-reports-"));
    const scores = [
      lighthouse(`${BASE}/login`, null, path.join(reports, "login.json")),
      lighthouse(`${BASE}/`, cookie, path.join(reports, "dashboard.json")),
      lighthouse(`${BASE}/study`, cookie, path.join(reports, "study.json")),
    ];
    // Study on a repeat visit: the first run installs the service worker, the second is measured.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), "prite-lh-profile-"));
    lighthouse(`${BASE}/study`, cookie, path.join(reports, "study-first.json"), profile);
    const repeat = lighthouse(
      `${BASE}/study`,
      cookie,
      path.join(reports, "study-repeat.json"),
      profile,
    );
    fs.rmSync(profile, { recursive: true, force: true });
    console.log(`reports in ${reports}`);
    const cpu = os.cpus();
    const lines = [
      "",
      `## Lighthouse (bench/lighthouse.ts) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      "",
      `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, load average ${os.loadavg()[0]!.toFixed(1)} at the end; Lighthouse 12.8.2, Debian Chromium, mobile profile (simulated slow 4G, 4× CPU slowdown); built server, embedded PGlite, demo bank`,
      "",
      "| page | Performance | LCP | FCP | TBT | CLS | goals met |",
      "| --- | --- | --- | --- | --- | --- | --- |",
      ...scores.map(
        (s) =>
          `| ${s.page} | ${s.performance} | ${(s.lcpMs / 1000).toFixed(2)} s | ${(s.fcpMs / 1000).toFixed(2)} s | ${s.tbtMs.toFixed(0)} ms | ${s.cls.toFixed(3)} | ${s.performance >= 95 && s.cls <= 0.1 && s.tbtMs <= 200 ? "yes" : "no"} |`,
      ),
      "",
      `Study on a repeat visit (service worker installed, same profile, storage kept): Performance ${repeat.performance}, interactive ${(repeat.interactiveMs / 1000).toFixed(2)} s (goal ≤ 1 s: ${repeat.interactiveMs <= 1000 ? "met" : "not met"}), LCP ${(repeat.lcpMs / 1000).toFixed(2)} s, FCP ${(repeat.fcpMs / 1000).toFixed(2)} s, TBT ${repeat.tbtMs.toFixed(0)} ms; first visit interactive ${(scores[2]!.interactiveMs / 1000).toFixed(2)} s.`,
    ];
    if (!noRecord)
      fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), lines.join("\n") + "\n");
    console.log(lines.join("\n"));
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
