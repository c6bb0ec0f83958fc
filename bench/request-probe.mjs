/**
 * A preload for the built server in benches (`node --import ./bench/request-probe.mjs`), so that a
 * baseline built before decision 424 (no `Server-Timing` header) is measured by the same rule as this
 * tree: for each /trpc and /api request, one JSON line appended to the file named by
 * PRITE_REQUEST_PROBE, with
 *
 * - `start`, `ready`: when Node emitted the request (its headers parsed) and when its response's head
 *   was written (the answer ready), in milliseconds since the epoch (comparable with the browser's);
 * - `cpu`, `runq`: the main thread's time on a core and waiting for one (runnable, not running) over
 *   that interval, from Linux's /proc/thread-self/schedstat (null elsewhere). The rest of the interval
 *   the thread slept: idle in the event loop, or blocked in a system call.
 *
 * Used by cold-paths-bench.ts; nothing of it is in the product.
 */
import fs from "node:fs";
import http from "node:http";
import { performance } from "node:perf_hooks";

const file = process.env.PRITE_REQUEST_PROBE;
if (file) {
  const now = () => performance.timeOrigin + performance.now();
  /** [ns on a core, ns waiting for one] of the calling thread, or null off Linux. */
  const sched = () => {
    try {
      const [onCpu, waiting] = fs.readFileSync("/proc/thread-self/schedstat", "utf8").split(" ");
      return [Number(onCpu), Number(waiting)];
    } catch {
      return null;
    }
  };
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, req, res, ...rest) {
    if (event === "request" && /^\/(api|trpc)(\/|$)/.test(req.url)) {
      const start = now();
      const before = sched();
      let written = false;
      const writeHead = res.writeHead;
      res.writeHead = function (...args) {
        if (!written) {
          written = true;
          const ready = now();
          const after = sched();
          const ms = (i) => (before && after ? (after[i] - before[i]) / 1e6 : null);
          const line = { method: req.method, url: req.url, start, ready, cpu: ms(0), runq: ms(1) };
          // Written before the response leaves: a client that has its answer finds the line there.
          fs.appendFileSync(file, JSON.stringify(line) + "\n");
        }
        return writeHead.apply(this, args);
      };
    }
    return emit.call(this, event, req, res, ...rest);
  };
}
