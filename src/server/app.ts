import fs from "node:fs";
import path from "node:path";
import cookie from "@fastify/cookie";
import cors from "@fastify/cors";
import helmet from "@fastify/helmet";
import fastifyStatic from "@fastify/static";
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from "@trpc/server/adapters/fastify";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { originAllowed } from "./auth/origin";
import type { DbHandle } from "./db/client";
import { projectRoot } from "./env";
import { httpContextFactory } from "./http-context";
import { registerRestRoutes } from "./rest";
import type { AppConfig } from "./trpc/context";
import { appRouter, type AppRouter } from "./trpc/router";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const BULK_BODY_LIMIT = 25 * 1024 * 1024;
/** tRPC procedures allowed the bulk body limit; every other call keeps 1 MB. */
export const BULK_PROCEDURES = new Set([
  "questions.bulkCreate",
  "imports.commit",
  "imports.checkDuplicates",
]);

export interface BuildAppOptions {
  handle: DbHandle;
  config: AppConfig;
  logger?: FastifyServerOptions["logger"];
  trustProxy?: boolean;
  allowedOrigins?: string[];
  /** Folder with the built SPA; omitted or missing → API only. */
  webDir?: string | null;
}

export const LOG_REDACT = [
  "req.headers.authorization",
  'req.headers["x-auth-token"]',
  "req.headers.cookie",
  'res.headers["set-cookie"]',
];

export interface RouteEntry {
  method: string;
  url: string;
}

declare module "fastify" {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { handle, config } = opts;
  const allowedOrigins = opts.allowedOrigins ?? [];
  const app = Fastify({
    logger: opts.logger ?? false,
    trustProxy: opts.trustProxy ?? false,
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

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix and Recharts set inline style attributes; scripts stay strictly same-origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // HSTS is only meaningful over HTTPS; it is added below when the request arrived that way.
    hsts: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook("onSend", async (req, reply) => {
    if (req.protocol === "https") {
      reply.header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
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
    if (status === 413) message = "The request is too large.";
    else if (err.code === "FST_ERR_CTP_INVALID_JSON_BODY" || err instanceof SyntaxError)
      message = "The request body is not valid JSON.";
    return reply.status(status).send({ message });
  });

  // Cross-site forgery guard for cookie sessions, and the per-procedure body limit for tRPC.
  app.addHook("onRequest", async (req, reply) => {
    if (!req.url.startsWith("/api/") && !req.url.startsWith("/trpc/")) return;
    if (req.url.startsWith("/trpc/")) {
      const length = Number(req.headers["content-length"] ?? 0);
      const procedures = req.url.slice(6).split("?")[0]!.split(",");
      const limit = procedures.every((p) => BULK_PROCEDURES.has(p))
        ? BULK_BODY_LIMIT
        : DEFAULT_BODY_LIMIT;
      if (length > limit) return reply.status(413).send({ message: "The request is too large." });
    }
    if (!originAllowed(req, allowedOrigins)) {
      return reply.status(403).send({ message: "Request origin not allowed" });
    }
  });

  const makeContext = httpContextFactory(handle.db, config);

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

  await app.register(async (trpcScope) => {
    // The onRequest hook above holds every call but the bulk procedures to 1 MB.
    trpcScope.addHook("onRoute", (route) => {
      route.bodyLimit = BULK_BODY_LIMIT;
    });
    await trpcScope.register(fastifyTRPCPlugin, {
      prefix: "/trpc",
      trpcOptions: {
        router: appRouter,
        createContext: ({ req, res }) => makeContext(req, res),
        onError: ({ error, path: procedure, req }) => {
          if (error.code === "INTERNAL_SERVER_ERROR") {
            req.log.error({ err: error.cause ?? error, procedure }, "tRPC procedure failed");
          }
        },
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>);
  });

  registerRestRoutes(app, makeContext);

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
        // Hashed assets never change; index.html must always be revalidated.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header("Cache-Control", "public, max-age=31536000, immutable");
        }
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith("/api/") || req.url === "/api" || req.url.startsWith("/trpc")) {
      return reply.status(404).send({ message: "Not found" });
    }
    // A missing hashed asset (an old tab after a deploy) must fail loudly, not load index.html as JS.
    const pathname = req.url.split("?")[0] ?? "";
    const looksLikeFile = pathname.startsWith("/assets/") || /\.[a-z0-9]+$/i.test(pathname);
    if (hasWeb && !looksLikeFile && (req.method === "GET" || req.method === "HEAD")) {
      return reply.header("Cache-Control", "no-cache").sendFile("index.html", webDir!);
    }
    return reply.status(404).send({ message: "Not found" });
  });

  return app;
}
