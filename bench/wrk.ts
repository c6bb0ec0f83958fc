/**
 * Debian's `wrk` as the load benches run it (bench/api-load.ts, bench/stats-bench.ts): 2 threads,
 * authenticated with `x-auth-token` and the browser's `x-time-zone`, its report read into numbers.
 */
import { spawnSync } from "node:child_process";

export interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
}

export interface WrkRun {
  target: string;
  token: string;
  seconds: number;
  connections: number;
  timeZone: string;
  /** A Lua script (wrk -s) that writes the requests. */
  script?: string;
}

/** One of wrk's latencies ("812.00us", "3.41ms", "1.20s") in milliseconds. */
function ms(text: string | undefined): number {
  // eslint-disable-next-line regexp/no-super-linear-move -- wrk's own summary line, a few dozen characters
  const m = text ? /([\d.]+)(us|ms|s)/.exec(text) : null;
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === "us" ? v / 1000 : m[2] === "s" ? v * 1000 : v;
}

export function runWrk(run: WrkRun): WrkResult {
  const wrkArgs = [
    "-t2",
    `-c${run.connections}`,
    `-d${run.seconds}s`,
    "--latency",
    // wrk's default 2 s timeout would count slow answers as errors; latency already shows them.
    "--timeout",
    "10s",
    "-H",
    `x-auth-token: ${run.token}`,
    "-H",
    `x-time-zone: ${run.timeZone}`,
  ];
  if (run.script) wrkArgs.push("-s", run.script);
  wrkArgs.push(run.target);
  const out = spawnSync("wrk", wrkArgs, { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`wrk failed: ${out.stderr}`);
  const text = out.stdout;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  const sockErr = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? 0),
    // The latency distribution's lines, not the '71.50%' of the stdev column.
    // eslint-disable-next-line regexp/no-super-linear-move -- wrk's own report, a few kilobytes
    p50: ms(/^\s+50%\s+(\S+)/m.exec(text)?.[1]),
    // eslint-disable-next-line regexp/no-super-linear-move -- wrk's own report, a few kilobytes
    p99: ms(/^\s+99%\s+(\S+)/m.exec(text)?.[1]),
    // eslint-disable-next-line regexp/no-super-linear-move -- wrk's own report, a few kilobytes
    requests: Number(/(\d+) requests in/.exec(text)?.[1] ?? 0),
    errors: non2xx + (sockErr ? sockErr.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
  };
}
