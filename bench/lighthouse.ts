/**
 * Lighthouse (issue 8 item 4, issue 20 item 3): the npm `lighthouse` 12.x with Debian's Chromium,
 * mobile profile (Lighthouse's default: Moto G Power emulation, simulated slow 4G and 4× CPU
 * slowdown), on Sign In, Dashboard, Study and Browse, and (issue 35 item 2) the Practice Exam runner
 * (a 10-question timed exam just created), Import on its Anki tab (/import?tab=anki) and the
 * program dashboard (/program, signed in as the program's director, with five residents), against the
 * built server with a fresh embedded database and the demo bank. Each page is measured `--runs` times (default 3) and the median of each
 * figure is recorded. Goals: Performance ≥ 95, CLS ≤ 0.1, TBT ≤ 200 ms. Appends to bench/RESULTS.md.
 *
 *   npx tsx bench/lighthouse.ts [--runs 3] [--baseline main] [--no-record] [--pages study,browse]
 *
 * `--baseline REF` measures the app as it is at git REF in the same sitting: REF's tree is exported to a
 * temporary folder, built there and served on its own port, and every run measures the baseline and
 * this tree back to back, page by page, so both see the same load on the machine. The 1-minute load
 * average is read before each run and recorded beside the figures.
 *
 * Lighthouse is not a project dependency (it is large and only this script uses it): set
 * LIGHTHOUSE_BIN to an installed `lighthouse` binary, or the script runs `npx --yes lighthouse@12.8.2`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO_BANK } from "../src/server/features/seed/demo-bank";
import { startBuiltServer, type BuiltServer } from "./built-server";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const ALL_PAGES = [
  { path: "/login", name: "Sign In", signedIn: false },
  { path: "/", name: "Dashboard", signedIn: true },
  { path: "/study", name: "Study", signedIn: true },
  { path: "/browse", name: "Browse", signedIn: true },
  { path: "/exams/:exam", name: "Practice Exam", signedIn: true },
  { path: "/import?tab=anki", name: "Import", signedIn: true },
  { path: "/program", name: "Program", signedIn: true },
] as const;

/** The page's address on a target: the exam's id in place of `:exam`. */
const urlOf = (target: Target, pagePath: string) =>
  `${target.base}${pagePath.replace(":exam", target.examId)}`;

interface Score {
  performance: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  interactiveMs: number;
  /** The 1-minute load average just before the run. */
  load: number;
}

const CHROME_FLAGS =
  "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync";

/**
 * `profile`: a Chromium profile kept between runs and Lighthouse's storage reset off, so a second run is
 * a repeat visit (service worker installed, shell precached: issue 18 item 7).
 */
function lighthouse(url: string, cookie: string | null, out: string, profile?: string): Score {
  const load = os.loadavg()[0]!;
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
  const once = () =>
    bin
      ? spawnSync(bin, lhArgs, { encoding: "utf8" })
      : spawnSync("npx", ["--yes", "lighthouse@12.8.2", ...lhArgs], { encoding: "utf8" });
  let run = once();
  // On a loaded machine Lighthouse now and then loses its trace (NO_NAVSTART): one more try.
  if (run.status !== 0) run = once();
  if (run.status !== 0) throw new Error(`lighthouse failed: ${run.stderr}`);
  const report = JSON.parse(fs.readFileSync(out, "utf8")) as {
    categories: { performance: { score: number } };
    audits: Record<string, { numericValue: number }>;
  };
  return {
    performance: Math.round(report.categories.performance.score * 100),
    lcpMs: report.audits["largest-contentful-paint"]!.numericValue,
    fcpMs: report.audits["first-contentful-paint"]!.numericValue,
    tbtMs: report.audits["total-blocking-time"]!.numericValue,
    cls: report.audits["cumulative-layout-shift"]!.numericValue,
    interactiveMs: report.audits.interactive?.numericValue ?? NaN,
    load,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const noRecord = process.argv.includes("--no-record");
/** `--pages study,browse`: only these pages (by name, lower case, no spaces), e.g. while iterating. */
const pageFilter = argValue("--pages")?.split(",");
const PAGES = ALL_PAGES.filter(
  (page) => !pageFilter || pageFilter.includes(page.name.replace(/\s/g, "").toLowerCase()),
);
const runs = Number(argValue("--runs") ?? 3);
const baselineRef = argValue("--baseline");

/** One build of the app served on its own port with its own data folder and signed-in user. */
interface Target {
  label: string;
  root: string;
  base: string;
  cookie: string;
  server: BuiltServer;
  dataDir: string;
  /** The Practice Exam the runner page opens. */
  examId: string;
}

function build(root: string) {
  const run = spawnSync("npm", ["run", "build"], { cwd: root, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`build failed in ${root}: ${run.stdout}\n${run.stderr}`);
}

/** REF's tree in a temporary folder that shares this checkout's node_modules. */
function exportRef(ref: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-lh-baseline-"));
  const archive = spawnSync("git", ["archive", "--format=tar", ref], {
    cwd: ROOT,
    maxBuffer: 1 << 30,
  });
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed: ${archive.stderr}`);
  const untar = spawnSync("tar", ["-x", "-C", dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

async function startTarget(label: string, root: string, port: number): Promise<Target> {
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-lh-"));
  const server = await startBuiltServer({
    root,
    port,
    env: { DATA_DIR: dataDir, DATABASE_URL: "" },
    label,
  });
  const reg = await fetch(`${base}/api/auth/register`, {
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
  await fetch(`${base}/api/questions/bulk`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-auth-token": token },
    body: JSON.stringify({ questions: DEMO_BANK.map((q) => ({ ...q, year: 2024 })) }),
  });
  const cookie = `prite_session=${token}`;
  const mutation = async (procedure: string, input: unknown, as = cookie) => {
    const response = await fetch(`${base}/trpc/${procedure}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: as, origin: base },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { result?: { data?: unknown }; error?: unknown };
    if (!response.ok) throw new Error(`${procedure}: ${JSON.stringify(body.error)}`);
    return body.result?.data as Record<string, unknown>;
  };
  const created = await mutation("exams.create", { size: 10, mode: "timed" });
  const examId = String((created.exam as { id: string }).id);
  // The lighthouse user directs a program of five residents (the /program dashboard).
  const program = await mutation("programs.create", {
    name: "Lighthouse Psychiatry",
    institution: "Bench University",
  });
  for (let i = 1; i <= 5; i++) {
    const resident = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        username: `lighthouse_resident_${i}`,
        email: `lighthouse_resident_${i}@example.test`,
        password: "a long password",
        confirmPassword: "a long password",
        pgyLevel: String(((i - 1) % 4) + 1),
      }),
    });
    const { token: residentToken } = (await resident.json()) as { token: string };
    await mutation("programs.join", { code: program.code }, `prite_session=${residentToken}`);
  }
  return { label, root, base, cookie, server, dataDir, examId };
}

async function stopTarget(target: Target) {
  await target.server.stop();
  fs.rmSync(target.dataDir, { recursive: true, force: true });
}

function row(label: string, scores: Score[]): string {
  const perf = median(scores.map((s) => s.performance));
  const tbt = median(scores.map((s) => s.tbtMs));
  const cls = median(scores.map((s) => s.cls));
  const met = perf >= 95 && tbt <= 200 && cls <= 0.1;
  return `| ${label} | **${perf}** (${scores.map((s) => s.performance).join(", ")}) | ${(median(scores.map((s) => s.lcpMs)) / 1000).toFixed(2)} s | ${(median(scores.map((s) => s.fcpMs)) / 1000).toFixed(2)} s | **${tbt.toFixed(0)} ms** (${scores.map((s) => s.tbtMs.toFixed(0)).join(", ")}) | ${cls.toFixed(3)} | ${scores.map((s) => s.load.toFixed(1)).join(", ")} | ${met ? "yes" : "no"} |`;
}

async function main() {
  const targets: Target[] = [];
  let baselineDir: string | null = null;
  try {
    if (baselineRef) {
      baselineDir = exportRef(baselineRef);
      build(baselineDir);
    }
    build(ROOT);
    const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: ROOT,
      encoding: "utf8",
    }).stdout.trim();
    if (baselineDir) {
      const refCommit = spawnSync("git", ["rev-parse", "--short", baselineRef!], {
        cwd: ROOT,
        encoding: "utf8",
      }).stdout.trim();
      targets.push(await startTarget(`${baselineRef} (${refCommit})`, baselineDir, 3985));
    }
    targets.push(await startTarget(baselineDir ? `this tree (${commit})` : commit, ROOT, 3984));

    // Reports stay in the system's temporary folder for the diagnostics behind each score.
    const reports = fs.mkdtempSync(path.join(os.tmpdir(), "prite-lh-reports-"));
    const scores = new Map<string, Score[]>();
    for (let run = 1; run <= runs; run++) {
      for (const page of PAGES) {
        for (const [t, target] of targets.entries()) {
          const name = `${t}-${page.name.replace(/\s/g, "").toLowerCase()}-${run}.json`;
          const score = lighthouse(
            urlOf(target, page.path),
            page.signedIn ? target.cookie : null,
            path.join(reports, name),
          );
          const key = `${page.path}\t${t}`;
          scores.set(key, [...(scores.get(key) ?? []), score]);
          console.log(
            `run ${run} ${page.name} ${target.label}: ${score.performance}, TBT ${score.tbtMs.toFixed(0)} ms, LCP ${(score.lcpMs / 1000).toFixed(2)} s, load ${score.load.toFixed(1)}`,
          );
        }
      }
    }

    // Study on a repeat visit: the first run installs the service worker, the second is measured
    // (not with --pages).
    const repeats: Score[] = [];
    for (const [t, target] of pageFilter ? [] : targets.entries()) {
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), "prite-lh-profile-"));
      lighthouse(
        `${target.base}/study`,
        target.cookie,
        path.join(reports, `${t}-study-first.json`),
        profile,
      );
      repeats.push(
        lighthouse(
          `${target.base}/study`,
          target.cookie,
          path.join(reports, `${t}-study-repeat.json`),
          profile,
        ),
      );
      fs.rmSync(profile, { recursive: true, force: true });
    }
    console.log(`reports in ${reports}`);

    const cpu = os.cpus();
    const lines = [
      "",
      `## Lighthouse (bench/lighthouse.ts) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      "",
      `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM; Lighthouse 12.8.2, Debian Chromium, mobile profile (simulated slow 4G, 4× CPU slowdown); built server, embedded PGlite, demo bank`,
      `- ${runs} runs per page, medians (each run's figure in brackets); the load column is the 1-minute load average before each run${targets.length > 1 ? "; the baseline and this tree measured back to back in every run" : ""}`,
      "",
      "| page | build | Performance | LCP | FCP | TBT | CLS | load | goals met |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
      ...PAGES.flatMap((page) =>
        targets.map((target, t) =>
          row(`${page.name} (${page.path}) | ${target.label}`, scores.get(`${page.path}\t${t}`)!),
        ),
      ),
      "",
      ...repeats.map((repeat, t) => {
        const target = targets[t]!;
        return `Study on a repeat visit, ${target.label} (service worker installed, same profile, storage kept): Performance ${repeat.performance}, interactive ${(repeat.interactiveMs / 1000).toFixed(2)} s, LCP ${(repeat.lcpMs / 1000).toFixed(2)} s, FCP ${(repeat.fcpMs / 1000).toFixed(2)} s, TBT ${repeat.tbtMs.toFixed(0)} ms (load ${repeat.load.toFixed(1)}).`;
      }),
    ];
    if (!noRecord)
      fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), lines.join("\n") + "\n");
    console.log(lines.join("\n"));
  } finally {
    for (const target of targets) await stopTarget(target);
    if (baselineDir) fs.rmSync(baselineDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
