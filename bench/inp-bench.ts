/**
 * Interaction to Next Paint on a phone (issue 35 item 2): the built server with a fresh embedded
 * database, Debian's Chromium through playwright-core at a 375 × 667 viewport (mobile, touch, DPR 2)
 * with a 4× CPU slowdown (CDP Emulation.setCPUThrottlingRate), signed in as a resident with 100 due
 * questions. The study loop is driven by clicks, and each interaction's latency is read from the Event
 * Timing API (PerformanceObserver type "event", durationThreshold 16): an interaction's figure is the
 * longest `duration` among the entries that share its interactionId, as INP counts it; an interaction
 * that leaves no entry took under 16 ms and counts as 16.
 *
 * Measured, 20 each: an answer's choice, Check Answer, each rating (Hard, Medium, Easy: the rating
 * also opens the next question at once) and Next Question (opening the next question unanswered).
 * Goal: the median of each ≤ 200 ms. Appends to bench/RESULTS.md unless --no-record.
 *
 *   node scripts/build.mjs && npx tsx bench/inp-bench.ts [--count 20] [--cpu 4] [--trace out.json] [--no-record]
 *
 * `--trace FILE` writes a Chrome trace (devtools.timeline) of the whole loop, for the Performance panel.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { chromium, type Page } from "playwright-core";
import { DEMO_BANK } from "../src/server/features/seed/demo-bank";
import { startBuiltServer } from "./built-server";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "20" },
    cpu: { type: "string", default: "4" },
    trace: { type: "string" },
    port: { type: "string", default: "3986" },
    "no-record": { type: "boolean", default: false },
  },
});
const COUNT = Number(args.count);
const CPU = Number(args.cpu);
const RATINGS = ["Hard", "Medium", "Easy"] as const;
/** Each rating COUNT times, and COUNT questions passed by with Next Question. */
const QUESTIONS = COUNT * (RATINGS.length + 1) + 10;

async function startServer(port: number) {
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-inp-"));
  const server = await startBuiltServer({
    root: ROOT,
    port,
    env: { DATA_DIR: dataDir, DATABASE_URL: "" },
  });
  const reg = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      username: "inp_bench",
      email: "inp_bench@example.test",
      password: "a long password",
      confirmPassword: "a long password",
      pgyLevel: "2",
    }),
  });
  const { token } = (await reg.json()) as { token: string };
  // Single-answer questions with the demo bank's texts and explanations, each made unique.
  const questions = Array.from({ length: QUESTIONS }, (_, i) => {
    const q = DEMO_BANK[i % DEMO_BANK.length]!;
    return { ...q, text: `${q.text} (${i + 1})`, number: i + 1, year: 2024 };
  });
  const bulk = await fetch(`${base}/api/questions/bulk`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-auth-token": token },
    body: JSON.stringify({ questions }),
  });
  if (!bulk.ok) throw new Error(`bulk: ${bulk.status} ${await bulk.text()}`);
  // All of them due today: the daily limit of new questions up to the most.
  const limits = await fetch(`${base}/trpc/study.setDailyLimits`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: `prite_session=${token}`, origin: base },
    body: JSON.stringify({ newPerDay: 500 }),
  });
  if (!limits.ok) throw new Error(`setDailyLimits: ${limits.status} ${await limits.text()}`);
  const stop = async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, token, stop };
}

/** Collects Event Timing entries in the page; `window.__inpSince(t)` answers the longest since t. */
const OBSERVER = `
  window.__events = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.interactionId) window.__events.push({ id: e.interactionId, name: e.name, start: e.startTime, duration: e.duration, processing: e.processingEnd - e.processingStart, delay: e.processingStart - e.startTime });
    }
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
`;

interface Sample {
  duration: number;
  /** From the click until its outcome is on screen, as Playwright sees it (includes the server). */
  visible: number;
  processing: number;
  delay: number;
}

async function measure(page: Page, act: () => Promise<void>, settle: () => Promise<void>) {
  const since = await page.evaluate(() => performance.now());
  const started = performance.now();
  await act();
  await settle();
  const visible = performance.now() - started;
  // Event Timing entries are dispatched after the next paint: give two frames (slowed 4×) to arrive.
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))),
  );
  await page.waitForTimeout(150);
  const worst = await page.evaluate((t) => {
    const events = (
      window as unknown as {
        __events: { start: number; duration: number; processing: number; delay: number }[];
      }
    ).__events.filter((e) => e.start >= t);
    if (events.length === 0) return { duration: 16, processing: 0, delay: 0 };
    const worst = events.reduce((a, b) => (b.duration > a.duration ? b : a));
    return { duration: worst.duration, processing: worst.processing, delay: worst.delay };
  }, since);
  return { ...worst, visible };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

async function main() {
  const server = await startServer(Number(args.port));
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  const samples = new Map<string, Sample[]>();
  const add = (label: string, s: Sample) => samples.set(label, [...(samples.get(label) ?? []), s]);
  const loads: number[] = [];
  try {
    const context = await browser.newContext({
      viewport: { width: 375, height: 667 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      timezoneId: "America/New_York",
    });
    await context.addCookies([
      { name: "prite_session", value: server.token, url: server.base, httpOnly: true },
    ]);
    await context.addInitScript(OBSERVER);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
    if (args.trace) await browser.startTracing(page, { path: args.trace, screenshots: false });

    await page.goto(`${server.base}/study`);
    await page.getByRole("button", { name: "Start Studying" }).click();
    const heading = page.getByRole("heading", { name: /^Question \d+\/\d+$/ });
    await heading.waitFor();

    const counts = { Hard: 0, Medium: 0, Easy: 0, next: 0 };
    let turn = 0;
    while (counts.Hard + counts.Medium + counts.Easy + counts.next < COUNT * 4) {
      loads.push(os.loadavg()[0]!);
      // A session holds 50 questions: after the last, Session Complete starts the next one.
      const again = page.getByRole("button", { name: "Start New Session" });
      await heading.or(again).first().waitFor();
      if (await again.isVisible()) {
        await again.click();
        await heading.waitFor();
      }
      const title = await heading.innerText();
      const [at, of] = title.match(/\d+/g)!.map(Number);
      // The last question of a session has Finish, not Next Question: rated instead.
      const skip = turn % 4 === 3 && counts.next < COUNT && at! < of!;
      turn++;
      if (skip) {
        add(
          "Next Question (opens the next question)",
          await measure(
            page,
            () => page.getByRole("button", { name: "Next Question" }).click(),
            () =>
              page
                .waitForFunction((t) => !document.body.innerText.includes(t), title)
                .then(() => {}),
          ),
        );
        counts.next++;
        continue;
      }
      add(
        "choose an answer",
        await measure(
          page,
          () => page.getByRole("radio").first().click(),
          () => page.locator("[role=radio][aria-checked=true]").waitFor(),
        ),
      );
      add(
        "Check Answer",
        await measure(
          page,
          () => page.getByRole("button", { name: "Check Answer" }).click(),
          () => page.getByText("How difficult was this for you?").waitFor(),
        ),
      );
      const rating = RATINGS.filter((r) => counts[r] < COUNT).sort(
        (a, b) => counts[a] - counts[b],
      )[0]!;
      add(
        `${rating} (rates and opens the next question)`,
        await measure(
          page,
          () => page.getByRole("button", { name: new RegExp(`^${rating}`) }).click(),
          () =>
            page.waitForFunction((t) => !document.body.innerText.includes(t), title).then(() => {}),
        ),
      );
      counts[rating]++;
    }
    if (args.trace) await browser.stopTracing();
  } finally {
    await browser.close();
    await server.stop();
  }

  const commit = (await import("node:child_process"))
    .spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" })
    .stdout.trim();
  const cpu = os.cpus();
  const lines = [
    "",
    `## INP on a phone (bench/inp-bench.ts) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), shared with other work (1-minute load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} during the run: the figures are pessimistic); commit ${commit}`,
    `- Debian Chromium (playwright-core), 375 × 667 px, mobile, DPR 2, ${CPU}× CPU slowdown (CDP); the built server on a fresh embedded database; Event Timing (durationThreshold 16: an interaction without an entry counts as 16 ms); each interaction's figure is its longest entry`,
    "",
    "| interaction | n | median | p75 | max | median input delay | median processing | median click → outcome on screen | goal ≤ 200 ms (median) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...[...samples.entries()].map(([label, s]) => {
      const d = s.map((x) => x.duration);
      return `| ${label} | ${s.length} | **${median(d).toFixed(0)} ms** | ${pct(d, 75).toFixed(0)} ms | ${Math.max(...d).toFixed(0)} ms | ${median(s.map((x) => x.delay)).toFixed(0)} ms | ${median(s.map((x) => x.processing)).toFixed(0)} ms | ${median(s.map((x) => x.visible)).toFixed(0)} ms | ${median(d) <= 200 ? "met" : "NOT met"} |`;
    }),
    "",
  ];
  console.log(lines.join("\n"));
  if (!args["no-record"])
    fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), lines.join("\n"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
