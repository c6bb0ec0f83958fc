import fs from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";
import cookie from "@fastify/cookie";
import cors from "@fastify/cors";
import helmet from "helmet";
import fastifyStatic from "@fastify/static";
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from "@trpc/server/adapters/fastify";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import {
  looksLikeUntrustedProxy,
  ORIGIN_REFUSED,
  originAllowed,
  TRUST_PROXY_HINT,
} from "./auth/origin";
import type { DbHandle } from "./db/client";
import { projectRoot } from "./env";
import { LOG_SERIALIZERS } from "./log-serializers";
import { AUTH_CHANGED_CHANNEL, SessionCache } from "./auth/session-cache";
import { httpContextFactory } from "./http-context";
import { registerRestRoutes } from "./rest";
import { registerOidcRoutes } from "./rest/oidc";
import type { OidcSettings } from "./env";
import { registerBackupRoute } from "./rest/backup";
import type { AppConfig } from "./trpc/context";
import { leanMutationsHook, type LeanErrorHandler } from "./trpc/lean-mutations";
import { appRouter, type AppRouter } from "./trpc/router";
import { BULK_BODY_LIMIT, DEFAULT_BODY_LIMIT } from "./body-limits";
import { startAuditSweep } from "./features/audit/retention-sweep";
import { startExamSweep } from "./features/exams/deadline-sweep";
import { enableStatsCaches } from "./features/stats/stats-caches";
import { enableDuePageCache } from "./features/study/due-page-cache";
import { enablePlanReadCache } from "./features/study/plan-read-cache";
import { registerMetrics } from "./metrics";
import { registerReadiness } from "./ready";
import { preloadLinkHeader, ROUTE_PRELOADS_FILE, type RoutePreloads } from "./route-preloads";

export { BULK_BODY_LIMIT, DEFAULT_BODY_LIMIT };
export const TOO_LARGE = "The request is too large.";
/** tRPC procedures allowed the bulk body limit (bulk question saves and imports); every other call keeps 1 MB. */
export const BULK_PROCEDURES = new Set([
  "questions.bulkCreate",
  ...Object.keys(appRouter._def.procedures).filter((p) => p.startsWith("imports.")),
]);

/** The body limit of a tRPC URL: the bulk limit only when every procedure of the batch is a bulk save. */
export function trpcBodyLimit(url: string): number {
  const procedures = url.slice("/trpc/".length).split("?")[0]!.split(",");
  return procedures.every((p) => BULK_PROCEDURES.has(p)) ? BULK_BODY_LIMIT : DEFAULT_BODY_LIMIT;
}

/**
 * Counts the bytes actually received, so a chunked body (no content-length) meets the limit too: past
 * `limit` the stream fails with 413 before the body is parsed (docs/decisions/061-body-limits-by-bytes.md).
 */
function byteLimited(source: NodeJS.ReadableStream, limit: number): Transform {
  let received = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > limit) {
        source.unpipe(counted);
        done(Object.assign(new Error(TOO_LARGE), { statusCode: 413 }));
        return;
      }
      done(null, chunk);
    },
  });
  source.on("error", (err) => counted.destroy(err));
  return source.pipe(counted);
}

export interface BuildAppOptions {
  handle: DbHandle;
  config: AppConfig;
  logger?: FastifyServerOptions["logger"];
  /** Fastify's trustProxy: a hop count or proxy addresses from TRUST_PROXY (tests may pass true). */
  trustProxy?: boolean | number | string[];
  allowedOrigins?: string[];
  /** Folder with the built SPA; omitted or missing → API only. */
  webDir?: string | null;
  /**
   * How long a validated session is answered from memory (docs/decisions/092-session-cache.md); 0 or
   * omitted: every request looks its session up. Tests that change users behind the server's back
   * rely on the default.
   */
  sessionCacheMs?: number;
  /**
   * How often this process submits timed exams whose time ran out (issue 16); 0 or omitted: never
   * (tests sweep by hand with a fake clock). The server passes EXAM_SWEEP_INTERVAL_MS.
   */
  examSweepMs?: number;
  /** AUDIT_RETENTION_DAYS: older audit entries are swept hourly; omitted: never (tests sweep by hand). */
  auditRetentionDays?: number;
  /** False turns off the due page cache and the exam plan's kept reads (on by default, both databases; decisions 270, 396). */
  duePageCache?: boolean;
  /** False turns off the dashboard's summary cache (on by default, both databases; decision 260). */
  statsCache?: boolean;
  /**
   * How old (ms) the rankings' cohort of other users may be (decision 260); 0 or omitted: read with
   * every request. The server passes RANKING_COHORT_SECONDS.
   */
  rankingCohortMs?: number;
  /**
   * How long after the last request the cohort is still read ahead in the background (decision
   * 438); omitted: only requests read it. The server passes COHORT_KEEP_WARM_MS.
   */
  rankingCohortKeepWarmMs?: number;
  /** The server's clock, read once per request and by the exam sweep; tests pass a fake one. */
  now?: () => Date;
  /** METRICS_TOKEN: `/metrics` wants it as a bearer token; unset, it answers this machine only. */
  metricsToken?: string;
  /** The migrations `/api/ready` expects applied (tests); the shipped ones by default. */
  migrationsFolder?: string;
  /** Sign-in with the institution's account (issue 33); null or omitted: off. */
  oidc?: OidcSettings | null;
}

/**
 * What the logs never show: credentials in headers (should a serializer ever log them), the session
 * cookie we set, and password or token fields of any logged object (bodies themselves are never logged).
 */
export const LOG_REDACT = [
  "req.headers.authorization",
  'req.headers["x-auth-token"]',
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "headers.authorization",
  'headers["x-auth-token"]',
  "headers.cookie",
  ...["password", "currentPassword", "newPassword", "confirmPassword", "token"].flatMap((field) => [
    field,
    `*.${field}`,
    `*.*.${field}`,
  ]),
];

/** The pino options of the server (main.ts) and of the tests that read its logs. */
export function serverLoggerOptions(level: string) {
  return {
    level,
    redact: { paths: LOG_REDACT, censor: "[redacted]" },
    serializers: LOG_SERIALIZERS,
  };
}

/** The largest tRPC batch one request may carry (issue 24); the SPA's link uses the same number. */
export const TRPC_MAX_BATCH = 20;

function isApiPath(url: string): boolean {
  return url === "/api" || url.startsWith("/api/") || url.startsWith("/trpc/") || url === "/trpc";
}

/**
 * The `Server-Timing` value of an API answer: `app;dur=<ms>`, from the app's first own hook (the
 * request's headers parsed and routed, its cookies read) to the answer being ready to write (onSend:
 * the body built, a tRPC batch's procedures all answered), to 0.1 ms (docs/decisions/424). Not in
 * it: the time the request waited to be read, and the writing of the body.
 */
export function serverTiming(elapsedMs: number): string {
  return `app;dur=${elapsedMs.toFixed(1)}`;
}

/** Files at the root of the web build that a browser must ask for again every time. */
const ALWAYS_REVALIDATED: ReadonlySet<string> = new Set([
  "index.html",
  "sw.js",
  "manifest.webmanifest",
]);

/**
 * The file a request names, whichever copy of it is sent: with `preCompressed`, a browser asking for
 * index.html is sent index.html.br or .gz (issue 31), and the caching rule belongs to index.html.
 */
function logicalFile(sentPath: string): string {
  return path.basename(sentPath).replace(/\.(br|gz)$/, "");
}

/** The build's map of each page's chunks; null (no `Link` headers) for a build without one. */
function readRoutePreloads(webDir: string): RoutePreloads | null {
  try {
    return JSON.parse(
      fs.readFileSync(path.join(webDir, ROUTE_PRELOADS_FILE), "utf8"),
    ) as RoutePreloads;
  } catch {
    return null;
  }
}

/** The Content-Security-Policy (docs/decisions/062-content-security-policy.md). */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  // 'wasm-unsafe-eval' lets the Anki reader compile sql.js's WebAssembly (our own file); it allows
  // no JavaScript eval (decision 242).
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  // Radix Select and react-remove-scroll (dialogs, menus) insert <style> elements: no script is inline.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'"],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  // The service worker (sw.js, and the Workbox runtime it imports) comes from this origin only; named
  // rather than left to the script-src fallback so the policy says it (docs/decisions/190).
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

export interface RouteEntry {
  method: string;
  url: string;
}

declare module "fastify" {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
  interface FastifyRequest {
    /** performance.now() at the app's first own hook: the start of the request's Server-Timing. */
    arrivedAt: number;
  }
}

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { handle, config } = opts;
  const allowedOrigins = opts.allowedOrigins ?? [];
  // A hop count as a function of the hop index (0 is the socket's peer): fastify reads a bare number
  // as "trust nothing". The nearest `n` addresses are proxies; the next one is the client's.
  const hops = opts.trustProxy;
  const trustProxy: FastifyServerOptions["trustProxy"] =
    typeof hops === "number" ? (_address: string, hop: number) => hop < hops : (hops ?? false);
  const app = Fastify({
    logger: opts.logger ?? false,
    trustProxy,
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Batched tRPC paths are long: the default of 100 turns bigger batches into 404s.
    routerOptions: { maxParamLength: 5000 },
  });

  // Every route as registered, so the authorization matrix test can enumerate them (issue 9).
  const routeTable: RouteEntry[] = [];
  app.decorate("routeTable", routeTable);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url });
  });
  registerMetrics(app, { token: opts.metricsToken });

  await app.register(cookie);
  // helmet's middleware built once: @fastify/helmet rebuilt it, CSP parsing included, on every request
  // (about 2% of a due-page request's CPU under load, issue 8).
  const securityHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    // HSTS is only meaningful over HTTPS; it is added below when the request arrived that way.
    strictTransportSecurity: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  });
  app.decorateRequest("arrivedAt", 0);
  app.addHook("onRequest", (req, reply, done) => {
    // Where the request's Server-Timing starts: the app's first own hook (the cookie parse is before).
    req.arrivedAt = performance.now();
    securityHeaders(req.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
  app.addHook("onSend", async (req, reply) => {
    if (req.protocol === "https") {
      reply.header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    }
    // API answers depend on the session: no browser or shared cache may keep one (issue 24). An image
    // that was served sets its own private, immutable caching (rest/media.ts); its refusals do not.
    if (!isApiPath(req.url)) return;
    const servedImage = req.url.startsWith("/api/media/") && reply.statusCode < 400;
    if (!servedImage) reply.header("Cache-Control", "no-store");
    // The server's own time for the answer, for dev tools and the benches (docs/decisions/424); not
    // for an answer given before the hook that stamps the request ran.
    if (req.arrivedAt > 0) {
      reply.header("Server-Timing", serverTiming(performance.now() - req.arrivedAt));
    }
  });
  if (allowedOrigins.length > 0) {
    await app.register(cors, {
      origin: allowedOrigins,
      credentials: true,
      allowedHeaders: ["content-type", "x-auth-token", "authorization", "x-time-zone"],
      methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    });
  }

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) {
      req.log.error({ err }, "request failed");
      return reply.status(status).send({ message: "Internal server error" });
    }
    let message = err.message;
    if (status === 413) message = TOO_LARGE;
    else if (err.code === "FST_ERR_CTP_INVALID_JSON_BODY" || err instanceof SyntaxError)
      message = "The request body is not valid JSON.";
    return reply.status(status).send({ message });
  });

  // Cross-site forgery guard for cookie sessions, and the per-procedure body limit for tRPC.
  let proxyHintLogged = false;
  app.addHook("onRequest", async (req, reply) => {
    if (!req.url.startsWith("/api/") && !req.url.startsWith("/trpc/")) return;
    if (req.url.startsWith("/trpc/")) {
      // tRPC would read a multipart body whole before any limit applies; no procedure takes one.
      if (/^multipart\//i.test(req.headers["content-type"] ?? "")) {
        return reply.status(415).send({ message: "Unsupported Media Type: multipart/form-data" });
      }
      // A declared length over the limit is refused before a byte is read; chunked bodies are counted
      // by the preParsing hook of the tRPC scope.
      if (Number(req.headers["content-length"] ?? 0) > trpcBodyLimit(req.url)) {
        return reply.status(413).send({ message: TOO_LARGE });
      }
    }
    if (!originAllowed(req, allowedOrigins)) {
      if (!proxyHintLogged && looksLikeUntrustedProxy(req)) {
        proxyHintLogged = true;
        req.log.warn(TRUST_PROXY_HINT);
      }
      return reply.status(403).send({ message: ORIGIN_REFUSED });
    }
  });

  let sessionCache: SessionCache | undefined;
  if (opts.sessionCacheMs && opts.sessionCacheMs > 0) {
    const cache = new SessionCache(opts.sessionCacheMs);
    // Writes to users and sessions by anyone (migration 0015) reach every server within milliseconds.
    const unlisten = await handle.listen(
      AUTH_CHANGED_CHANNEL,
      (userId) => cache.forgetUser(userId),
      () => cache.clear(),
    );
    app.addHook("onClose", async () => {
      cache.clear();
      // Not awaited: with PostgreSQL away the UNLISTEN would wait for it, holding up shutdown; closing
      // the database ends the listening connection anyway.
      void unlisten().catch(() => {});
    });
    sessionCache = cache;
  }
  // A due page read before is answered again while the user's version is unchanged, on both
  // databases (docs/decisions/270-due-page-kept-by-version.md); the exam plan's reads likewise
  // (docs/decisions/396-plan-reads-kept-by-version.md).
  if (opts.duePageCache !== false) {
    enableDuePageCache(handle.db);
    enablePlanReadCache(handle.db);
  }
  // The dashboard's summary, checked against per-user versions the triggers keep, and the rankings'
  // cohort of other users (docs/decisions/260-dashboard-and-rankings-kept-between-requests.md).
  if (opts.statsCache !== false) {
    const clock = opts.now;
    enableStatsCaches(handle.db, {
      rankingCohortMs: opts.rankingCohortMs ?? 0,
      cohortKeepWarmMs: opts.rankingCohortKeepWarmMs,
      clock: clock ? () => clock().getTime() : undefined,
    });
  }
  const makeContext = httpContextFactory(handle.db, config, sessionCache, opts.now);

  if (opts.examSweepMs && opts.examSweepMs > 0) {
    const stopSweep = startExamSweep(handle.db, {
      intervalMs: opts.examSweepMs,
      now: opts.now,
      log: app.log,
    });
    // Before the database closes (main.ts closes the app first): a sweep in flight finishes.
    app.addHook("onClose", () => stopSweep());
  }

  if (opts.auditRetentionDays) {
    const stopAuditSweep = startAuditSweep(handle.db, {
      retentionDays: opts.auditRetentionDays,
      now: opts.now,
      log: app.log,
    });
    app.addHook("onClose", () => stopAuditSweep());
  }

  app.get("/api/health", async (_req, reply) => {
    try {
      await handle.ping();
      return { status: "ok", database: { kind: handle.kind, status: "ok" } };
    } catch {
      return reply
        .status(503)
        .send({ status: "error", database: { kind: handle.kind, status: "unavailable" } });
    }
  });

  registerReadiness(app, handle, opts.migrationsFolder);

  const logTrpcError: LeanErrorHandler = ({ error, path: procedure, req }) => {
    if (error.code === "INTERNAL_SERVER_ERROR") {
      req.log.error({ err: error.cause ?? error, procedure }, "tRPC procedure failed");
    }
  };
  await app.register(async (trpcScope) => {
    // One fastify route serves every procedure, so its own limit is the bulk one and the real limit of
    // each call is enforced here, on the bytes received: 1 MB unless every procedure is a bulk save.
    trpcScope.addHook("onRoute", (route) => {
      route.bodyLimit = BULK_BODY_LIMIT;
    });
    trpcScope.addHook("preParsing", async (req, _reply, payload) =>
      req.method === "GET" || req.method === "HEAD"
        ? payload
        : byteLimited(payload, trpcBodyLimit(req.url)),
    );
    // The study loop's two mutations, called one at a time, skip the fetch adapter (decision 407).
    trpcScope.addHook("preHandler", leanMutationsHook(makeContext, logTrpcError));
    await trpcScope.register(fastifyTRPCPlugin, {
      prefix: "/trpc",
      trpcOptions: {
        router: appRouter,
        // One HTTP request must not carry unbounded work (issue 24); the SPA's batch link sends at
        // most TRPC_MAX_BATCH calls, so only a hand-made batch meets this 400.
        maxBatchSize: TRPC_MAX_BATCH,
        createContext: ({ req, res }) => makeContext(req, res),
        onError: logTrpcError,
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>);
  });

  registerRestRoutes(app, makeContext);
  registerOidcRoutes(app, {
    db: handle.db,
    settings: opts.oidc ?? null,
    throttle: config.throttle,
    now: opts.now,
  });
  registerBackupRoute(app, makeContext, handle);

  const webDir = opts.webDir === undefined ? path.join(projectRoot(), "dist", "web") : opts.webDir;
  const hasWeb = !!webDir && fs.existsSync(path.join(webDir, "index.html"));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir,
      index: false,
      wildcard: false,
      // scripts/build.mjs writes .br and .gz next to each text asset.
      preCompressed: true,
      maxAge: "1h",
      setHeaders: (res, filePath) => {
        // Hashed assets never change; index.html must always be revalidated, or a deploy would leave
        // browsers on the old shell for an hour. So must the service worker and the manifest: the
        // browser compares sw.js byte for byte to find a new version (docs/decisions/190).
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header("Cache-Control", "public, max-age=31536000, immutable");
        } else if (ALWAYS_REVALIDATED.has(logicalFile(filePath))) {
          res.header("Cache-Control", "no-cache");
        }
      },
    });
  }

  const preloads = hasWeb ? readRoutePreloads(webDir!) : null;
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith("/api/") || req.url === "/api" || req.url.startsWith("/trpc")) {
      return reply.status(404).send({ message: "Not found" });
    }
    // A missing hashed asset (an old tab after a deploy) must fail loudly, not load index.html as JS.
    const pathname = req.url.split("?")[0] ?? "";
    const looksLikeFile = pathname.startsWith("/assets/") || /\.[a-z0-9]+$/i.test(pathname);
    if (hasWeb && !looksLikeFile && (req.method === "GET" || req.method === "HEAD")) {
      // The page's own chunks, named so the browser fetches them beside the entry (decision 418).
      const link = preloads && preloadLinkHeader(preloads, pathname);
      if (link) reply.header("Link", link);
      return reply.header("Cache-Control", "no-cache").sendFile("index.html", webDir!);
    }
    return reply.status(404).send({ message: "Not found" });
  });

  return app;
}
