/**
 * CPU seconds of each thread of this process (Linux: /proc/self/task; empty elsewhere), by thread id.
 * On a loaded machine the busiest thread's CPU over a phase is what its wall time would be with a free
 * core for each thread (the duplicate check's search workers, decision 422).
 */
import fs from "node:fs";

/** USER_HZ: the unit of /proc's times. */
const TICKS_PER_SECOND = 100;

export function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  if (!fs.existsSync("/proc/self/task")) return out;
  for (const tid of fs.readdirSync("/proc/self/task")) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      // Fields after the command name's closing parenthesis: utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(tid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // The thread ended.
    }
  }
  return out;
}

/** The CPU seconds of the `count` busiest threads between two `threadCpu` readings, formatted. */
export function busiestThreads(
  before: Map<string, number>,
  after: Map<string, number>,
  count = 3,
): string {
  return [...after]
    .map(([tid, seconds]) => seconds - (before.get(tid) ?? 0))
    .sort((a, b) => b - a)
    .slice(0, count)
    .map((s) => s.toFixed(1))
    .join(", ");
}
