/**
 * The duplicate check's text search spread over worker threads (decision 422): one worker per core
 * (`os.availableParallelism()`, at most 8), each with its own copy of the bank's `BigramTextIndex`,
 * built from the texts sent to it once. A large `searchMany` is cut into chunks of probes of similar length that
 * the workers take in turn; a small one (the web's check of a few rows), a machine of one core, or a
 * worker that cannot start or fails is answered by the index in this thread. Each probe's answer is
 * the index's own, so the results (and their order) do not depend on the number of threads.
 *
 * The worker is text-search.worker.ts, loaded through tsx's API when this module runs from the source
 * (tsx, vitest) and text-search-worker.js beside the bundle otherwise (scripts/build.mjs).
 */
import { createRequire } from "node:module";
import os from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { BigramTextIndex } from "../../../core/similarity";
import type { SearchReply, SearchRequest, WorkerBank } from "./text-search-protocol";

/** Below this many probes in one call the search stays in this thread (~0.4 ms a probe at 50,000). */
export const POOL_MIN_PROBES = 256;
/** Probes per chunk handed to a worker: one counting pass of `searchMany`. */
const CHUNK = 64;
/**
 * At most this many workers, whatever the core count: each holds a copy of the index (~50 MB at
 * 50,000 texts) and builds it (~0.8 s of CPU), and a CLI call of 1,000 rows makes only ~16 chunks.
 */
const MAX_THREADS = 8;
/** Workers (and their copies of the index) are let go after this long without a search. */
const IDLE_MS = 60_000;

export interface TextSearchPoolOptions {
  /** Worker threads; below 2 the pool never starts. Default: one per core, at most 8. */
  threads?: number;
  /** Calls with fewer probes are answered in this thread. Default `POOL_MIN_PROBES`. */
  minProbes?: number;
  /** The worker's code (tests: one that cannot start). */
  workerUrl?: URL;
}

/**
 * Options of the pools made from now on where their constructor is given none: tests set
 * `minProbes: 0` so that every search of the duplicate check goes through the workers.
 */
export const poolDefaults: TextSearchPoolOptions = {};

interface Chunk {
  request: Omit<SearchRequest, "id">;
  resolve: (found: number[][]) => void;
}

interface PoolWorker {
  worker: Worker;
  busy: Chunk | null;
}

/**
 * The worker's code: the bundle's text-search-worker.js, or from the source (tsx, vitest) a module
 * that registers tsx's loader in the worker and then imports text-search.worker.ts (`--import tsx`
 * in a worker's execArgv does not reach the worker's entry on Node 20).
 */
function workerSource(url?: URL): { entry: URL | string; eval: boolean } {
  if (url) return { entry: url, eval: false };
  if (!import.meta.url.endsWith(".ts")) {
    return { entry: new URL("./text-search-worker.js", import.meta.url), eval: false };
  }
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx/package.json"));
  const api = new URL("dist/esm/api/index.mjs", tsx).href;
  const entry = new URL("./text-search.worker.ts", import.meta.url).href;
  return {
    entry: `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    eval: true,
  };
}

function unflatten(flat: Int32Array, probes: number): number[][] {
  const out: number[][] = new Array<number[]>(probes);
  let at = probes;
  for (let k = 0; k < probes; k++) {
    const count = flat[k]!;
    out[k] = Array.from(flat.subarray(at, at + count));
    at += count;
  }
  return out;
}

export class TextSearchPool {
  private readonly threads: number;
  private readonly minProbes: number;
  private readonly workerUrl: URL | undefined;
  private workers: PoolWorker[] = [];
  private starting: Promise<boolean> | null = null;
  /** Settles `starting` while the workers build their indexes. */
  private settleStart: ((ok: boolean) => void) | null = null;
  private failed = false;
  private closed = false;
  private readonly queue: Chunk[] = [];
  private idleTimer: NodeJS.Timeout | null = null;
  /** Probes the workers answered (tests, benches). */
  answeredByWorkers = 0;

  /**
   * @param local the bank's index in this thread, for small searches and as the fallback.
   * @param bank the texts and groups `local` was built from; each worker builds its copy from them.
   */
  constructor(
    private readonly local: BigramTextIndex,
    private readonly bank: WorkerBank,
    options: TextSearchPoolOptions = {},
  ) {
    const given = { ...poolDefaults, ...options };
    this.threads = given.threads ?? Math.min(MAX_THREADS, os.availableParallelism());
    this.minProbes = given.minProbes ?? POOL_MIN_PROBES;
    this.workerUrl = given.workerUrl;
  }

  /** `BigramTextIndex.searchMany`, on the workers when the call is large enough. */
  async searchMany(
    texts: readonly string[],
    group: string,
    minSimilarity: number,
  ): Promise<number[][]> {
    if (texts.length < this.minProbes || this.threads < 2 || this.failed || this.closed) {
      return this.local.searchMany(texts, group, minSimilarity);
    }
    if (!(await this.start())) return this.local.searchMany(texts, group, minSimilarity);
    // Probes of similar length together, as `searchMany` counts them; the longest (costliest) first.
    const order = texts
      .map((_, i) => i)
      .sort((a, b) => texts[b]!.length - texts[a]!.length || a - b);
    const results: number[][] = new Array<number[]>(texts.length);
    const pending: Promise<void>[] = [];
    for (let start = 0; start < order.length; start += CHUNK) {
      const members = order.slice(start, start + CHUNK);
      const request = { texts: members.map((i) => texts[i]!), group, minSimilarity };
      pending.push(
        new Promise<number[][]>((resolve) => this.queue.push({ request, resolve })).then((found) =>
          members.forEach((i, k) => (results[i] = found[k]!)),
        ),
      );
    }
    this.dispatch();
    await Promise.all(pending);
    return results;
  }

  /** Lets the workers go; later searches start them again (after `close`, never). */
  close(): void {
    this.closed = true;
    this.stop();
  }

  private stop(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const workers = this.workers;
    this.workers = [];
    this.starting = null;
    // Searches waiting for the workers to build are answered here.
    this.settleStart?.(false);
    this.settleStart = null;
    for (const w of workers) {
      // A chunk a worker still held is answered here.
      if (w.busy) this.runLocally(w.busy);
      w.busy = null;
      void w.worker.terminate();
    }
    for (const chunk of this.queue.splice(0)) this.runLocally(chunk);
  }

  private runLocally(chunk: Chunk): void {
    const { texts, group, minSimilarity } = chunk.request;
    chunk.resolve(this.local.searchMany(texts, group, minSimilarity));
  }

  /** Starts the workers once; false (and the pool given up) when any of them cannot start. */
  private start(): Promise<boolean> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.starting) return this.starting;
    let source: ReturnType<typeof workerSource>;
    try {
      source = workerSource(this.workerUrl);
    } catch {
      // From the source without tsx installed: searched in this thread.
      this.failed = true;
      return Promise.resolve(false);
    }
    this.starting = new Promise<boolean>((resolve) => {
      this.settleStart = resolve;
      let ready = 0;
      const fail = () => {
        if (this.failed) return;
        this.failed = true;
        this.stop();
      };
      for (let t = 0; t < this.threads; t++) {
        let worker: Worker;
        try {
          worker = new Worker(source.entry, { eval: source.eval, workerData: this.bank });
        } catch {
          fail();
          return;
        }
        const entry: PoolWorker = { worker, busy: null };
        this.workers.push(entry);
        worker.on("message", (reply: SearchReply) => {
          // A worker already let go: its chunk was answered here.
          if (!this.workers.includes(entry)) return;
          if (reply.id === -1) {
            worker.unref();
            if (++ready === this.threads) {
              this.settleStart = null;
              resolve(true);
            }
            return;
          }
          const chunk = entry.busy;
          entry.busy = null;
          if (chunk) {
            this.answeredByWorkers += chunk.request.texts.length;
            chunk.resolve(unflatten(reply.flat, chunk.request.texts.length));
          }
          this.dispatch();
        });
        worker.on("error", fail);
        worker.on("exit", () => {
          if (this.workers.includes(entry)) fail();
        });
      }
    });
    return this.starting;
  }

  /** Hands queued chunks to idle workers; lets the workers go after a while without work. */
  private dispatch(): void {
    for (const entry of this.workers) {
      if (entry.busy) continue;
      const chunk = this.queue.shift();
      if (!chunk) {
        entry.worker.unref();
        continue;
      }
      entry.busy = chunk;
      // Held while it works, so a process waiting only on the search does not exit.
      entry.worker.ref();
      entry.worker.postMessage({ id: 0, ...chunk.request } satisfies SearchRequest);
    }
    if (this.workers.length > 0 && this.workers.every((w) => !w.busy)) {
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.stop(), IDLE_MS);
      this.idleTimer.unref();
    }
  }
}
