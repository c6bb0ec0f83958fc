import cluster from "node:cluster";
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { PgPreparedQuery } from "drizzle-orm/pg-core";
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Histogram,
  Registry,
} from "prom-client";

/**
 * One registry per process (docs/decisions/320-readiness-and-metrics.md): Prometheus scrapes a
 * process, and the counters must survive the apps tests build one after another.
 */
export const registry = new Registry();

/** From 1 ms: the due page and an exam answer take one or two. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const httpDuration = new Histogram({
  name: "prite_http_request_duration_seconds",
  help: "HTTP requests by method, route pattern and status code",
  labelNames: ["method", "route", "status_code"] as const,
  buckets: BUCKETS,
  registers: [registry],
});

const procedureDuration = new Histogram({
  name: "prite_trpc_procedure_duration_seconds",
  help: "tRPC procedures (web app and REST) by path and outcome (ok or the tRPC error code)",
  labelNames: ["procedure", "outcome"] as const,
  buckets: BUCKETS,
  registers: [registry],
});

const queryDuration = new Histogram({
  name: "prite_db_query_duration_seconds",
  help: "Database queries by operation (select, insert, update, delete, or sql for raw SQL) and outcome",
  labelNames: ["operation", "outcome"] as const,
  buckets: [0.0001, 0.00025, 0.0005, ...BUCKETS],
  registers: [registry],
});

const answersRecorded = new Counter({
  name: "prite_answers_recorded_total",
  help: "Study answers and flashcard ratings recorded, live or synced from offline study",
  labelNames: ["kind"] as const,
  registers: [registry],
});

/** The procedures that record answers, and how many one successful call recorded. */
const ANSWERING: Record<string, { kind: string; count: (data: unknown) => number }> = {
  "study.answer": { kind: "answer", count: () => 1 },
  "study.rateFlashcard": { kind: "flashcard", count: () => 1 },
  "study.sync": {
    kind: "offline",
    count: (data) => (data as { applied?: number } | undefined)?.applied ?? 0,
  },
};

/** Called by the tRPC middleware around every procedure (src/server/trpc/init.ts). */
export function recordProcedure(
  path: string,
  result: { ok: true; data: unknown } | { ok: false; error: { code: string } } | undefined,
  startedMs: number,
): void {
  const outcome = !result ? "INTERNAL_SERVER_ERROR" : result.ok ? "ok" : result.error.code;
  procedureDuration.observe({ procedure: path, outcome }, (performance.now() - startedMs) / 1000);
  const answering = result?.ok ? ANSWERING[path] : undefined;
  if (answering && result?.ok) {
    const n = answering.count(result.data);
    if (n > 0) answersRecorded.inc({ kind: answering.kind }, n);
  }
}

let queriesTimed = false;
let defaultsCollected = false;

/**
 * Times every database query at drizzle's one funnel for them (PgPreparedQuery.queryWithCache, which
 * the PGlite and postgres.js drivers, transactions and prepared statements all go through). The
 * children are looked up once, so a query pays one performance.now() pair and one observe.
 */
export function timeDatabaseQueries(): void {
  if (queriesTimed) return;
  queriesTimed = true;
  type Funnel = (
    this: { queryMetadata?: { type?: string } },
    q: string,
    p: unknown[],
    run: () => Promise<unknown>,
  ) => unknown;
  const proto = PgPreparedQuery.prototype as unknown as { queryWithCache: Funnel };
  const original = proto.queryWithCache;
  const children = new Map<
    string,
    { ok: Histogram.Internal<string>; error: Histogram.Internal<string> }
  >();
  const child = (operation: string) => {
    let c = children.get(operation);
    if (!c) {
      c = {
        ok: queryDuration.labels({ operation, outcome: "ok" }),
        error: queryDuration.labels({ operation, outcome: "error" }),
      };
      children.set(operation, c);
    }
    return c;
  };
  proto.queryWithCache = async function (q, p, run) {
    const started = performance.now();
    const c = child(this.queryMetadata?.type ?? "sql");
    try {
      const result = await original.call(this, q, p, run);
      c.ok.observe((performance.now() - started) / 1000);
      return result;
    } catch (err) {
      c.error.observe((performance.now() - started) / 1000);
      throw err;
    }
  };
}

/**
 * Times a statement sent straight to the driver, past drizzle's funnel (the study writer's live path,
 * decision 398), under the operation it performs, so /metrics counts every query the server runs.
 */
export async function timeRawQuery<T>(operation: string, run: () => Promise<T>): Promise<T> {
  if (!queriesTimed) return run();
  const started = performance.now();
  try {
    const result = await run();
    queryDuration.observe({ operation, outcome: "ok" }, (performance.now() - started) / 1000);
    return result;
  } catch (err) {
    queryDuration.observe({ operation, outcome: "error" }, (performance.now() - started) / 1000);
    throw err;
  }
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address
    .trim()
    .toLowerCase()
    .replace(/^::ffff:/, "");
  if (a === "::1") return true;
  return isIP(a) === 4 && a.startsWith("127.");
}

/** Headers a reverse proxy adds; their presence says the socket's peer is not the client. */
const PROXY_HEADERS = ["forwarded", "x-real-ip", "x-forwarded-proto", "x-forwarded-host", "via"];

/**
 * Whether the request comes from this machine, whatever TRUST_PROXY says: the socket's peer and every
 * address the request says it was forwarded for are loopback, and a request that passed a proxy
 * without saying for whom is not. Fastify's `req.ip` alone will not do: without TRUST_PROXY, a
 * reverse proxy on the same machine makes every client 127.0.0.1; with it, `req.ip` is the hop
 * TRUST_PROXY names, while other hops may still be remote (decision 320).
 */
export function fromLoopback(req: FastifyRequest): boolean {
  if (!isLoopback(req.raw.socket.remoteAddress)) return false;
  const forwardedFor = req.headers["x-forwarded-for"];
  if (forwardedFor !== undefined) {
    return [forwardedFor]
      .flat()
      .join(",")
      .split(",")
      .every((hop) => isLoopback(hop));
  }
  return !PROXY_HEADERS.some((h) => req.headers[h] !== undefined);
}

const CLUSTER_METRICS_REQUEST = "prite:metrics";
const CLUSTER_METRICS_ANSWER = "prite:metrics-answer";

/**
 * WORKERS=N (decision 211): the scrape reaches one worker, which asks the primary for every worker's
 * metrics, summed by prom-client's AggregatorRegistry; otherwise Prometheus would see one worker's
 * counters at a time and read each switch as a reset.
 */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== CLUSTER_METRICS_REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: CLUSTER_METRICS_ANSWER, id: message.id, text }),
      (err: Error) =>
        worker.send({ type: CLUSTER_METRICS_ANSWER, id: message.id, error: err.message }),
    );
  });
}

if (cluster.isWorker) {
  // Answers the primary's AggregatorRegistry with this process's registry.
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry();
}

let clusterRequests = 0;

function metricsText(): Promise<string> {
  if (!cluster.isWorker || !process.send) return registry.metrics();
  const id = ++clusterRequests;
  return new Promise((resolve, reject) => {
    const onMessage = (m: { type?: string; id?: number; text?: string; error?: string }) => {
      if (m?.type !== CLUSTER_METRICS_ANSWER || m.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      if (m.error !== undefined) reject(new Error(m.error));
      else resolve(m.text ?? "");
    };
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new Error("the primary process did not answer with the metrics"));
    }, 6000);
    process.on("message", onMessage);
    process.send!({ type: CLUSTER_METRICS_REQUEST, id });
  });
}

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** `Authorization: Bearer <token>` against METRICS_TOKEN, in constant time (digests of equal length). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return timingSafeEqual(digest(match?.[1] ?? ""), digest(token)) && !!match;
}

export const METRICS_REFUSED =
  "Metrics are served to this machine only; set METRICS_TOKEN to scrape them from elsewhere.";
export const METRICS_TOKEN_NEEDED = "A valid metrics token is required.";

/** Label of a request that matched no route (404s): never the raw URL, which a client chooses. */
const UNMATCHED = "(unmatched)";
/** Label of the web build's files: fastify-static registers one route per file. */
const STATIC = "(static)";

function routeLabel(req: FastifyRequest): string {
  const url = req.routeOptions.url;
  if (!url) return UNMATCHED;
  if (url.startsWith("/api") || url.startsWith("/trpc") || url === "/metrics") return url;
  return STATIC;
}

/**
 * Times every HTTP request by route pattern, and serves `GET /metrics`: with METRICS_TOKEN set, to
 * a bearer of it only; without, to requests from this machine only.
 */
export function registerMetrics(app: FastifyInstance, opts: { token?: string }): void {
  // Here rather than at import: the CLI loads the procedures (and so this file) but serves nothing.
  if (!defaultsCollected) collectDefaultMetrics({ register: registry });
  defaultsCollected = true;
  timeDatabaseQueries();
  app.addHook("onResponse", (req, reply, done) => {
    httpDuration.observe(
      { method: req.method, route: routeLabel(req), status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.get("/metrics", async (req, reply) => {
    reply.header("Cache-Control", "no-store");
    if (opts.token) {
      if (!bearerMatches(req.headers.authorization, opts.token)) {
        return reply
          .status(401)
          .header("WWW-Authenticate", 'Bearer realm="metrics"')
          .send({ message: METRICS_TOKEN_NEEDED });
      }
    } else if (!fromLoopback(req)) {
      return reply.status(403).send({ message: METRICS_REFUSED });
    }
    reply.type(registry.contentType);
    return metricsText();
  });
}
