import { MutationCache, onlineManager, QueryCache, QueryClient } from "@tanstack/react-query";
import {
  createTRPCQueryUtils,
  createTRPCReact,
  httpBatchLink,
  TRPCClientError,
} from "@trpc/react-query";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
// Type-only: the server's code never reaches the browser bundle.
import type { AppRouter } from "../../server/trpc/router";

export const trpc = createTRPCReact<AppRouter>();

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type SessionUser = RouterOutputs["auth"]["me"];
export type TrpcClient = ReturnType<typeof createTrpcClient>;
export type TrpcUtils = ReturnType<typeof createTRPCQueryUtils<AppRouter>>;

/** How long a looked-up time zone is reused, so a resident who travels with the tab open is followed. */
const TIME_ZONE_REUSE_MS = 60_000;
let knownTimeZone: { zone: string; at: number } | null = null;

/** The part of TC39's Temporal this file reads (Chromium ships it; TypeScript's lib does not yet). */
interface TemporalNow {
  Now: { timeZoneId(): string };
}

/**
 * The server computes streaks and "today" in the resident's own time zone, so every call says which.
 * `Temporal.Now.timeZoneId()` answers in microseconds; building an Intl.DateTimeFormat, the only way
 * without Temporal, was a page load's most expensive function: 20–50 ms per call on a throttled phone
 * CPU (Lighthouse, issue 20), so that answer is reused for a minute.
 */
export function browserTimeZone(now = Date.now()): string {
  if (knownTimeZone && now - knownTimeZone.at < TIME_ZONE_REUSE_MS) return knownTimeZone.zone;
  let zone = "UTC";
  try {
    const temporal = (globalThis as { Temporal?: TemporalNow }).Temporal;
    zone =
      (temporal ? temporal.Now.timeZoneId() : Intl.DateTimeFormat().resolvedOptions().timeZone) ||
      "UTC";
  } catch {
    // An engine without time zone data: the server's default applies.
  }
  knownTimeZone = { zone, at: now };
  return zone;
}

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpBatchLink({
        url: "/trpc",
        // Long batches of GET queries are split rather than risking proxies that cut long URLs.
        maxURLLength: 2000,
        // The server refuses batches over 20 calls (TRPC_MAX_BATCH in src/server/app.ts).
        maxItems: 20,
        headers: () => ({ "x-time-zone": browserTimeZone() }),
      }),
    ],
  });
}

export function createQueryUtils(queryClient: QueryClient, client: TrpcClient): TrpcUtils {
  return createTRPCQueryUtils<AppRouter>({ queryClient, client });
}

/** The HTTP status behind a failed call, when the server answered at all. */
export function httpStatusOf(error: unknown): number | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = error.data as { httpStatus?: unknown } | undefined | null;
  if (typeof data?.httpStatus === "number") return data.httpStatus;
  const response = (error.meta as { response?: { status?: unknown } } | undefined)?.response;
  return typeof response?.status === "number" ? response.status : undefined;
}

export function isUnauthorized(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  const code = (error.data as { code?: unknown } | undefined | null)?.code;
  return code === "UNAUTHORIZED" || httpStatusOf(error) === 401;
}

/**
 * The text to show for a failed call: the server's own message when the server produced one
 * (it speaks the product's language), otherwise the screen's default such as 'Login failed'.
 * Transport failures ("Failed to fetch") are not the product's words, so they get the default; nor is
 * a 500's generic 'Internal server error', which says less than the screen's default
 * (docs/decisions/076-server-errors-show-the-screens-default.md).
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (
    error instanceof TRPCClientError &&
    error.data &&
    httpStatusOf(error) !== 500 &&
    typeof error.message === "string"
  ) {
    const message = error.message.trim();
    if (message) return message;
  }
  return fallback;
}

function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = httpStatusOf(error);
  // A 4xx will not change on retry; only network trouble and 5xx are worth another try.
  if (status !== undefined && status >= 400 && status < 500) return false;
  return failureCount < 2;
}

/**
 * Marks a query asked for before the session check has answered (lib/early-data.ts): its 401 means "not
 * signed in", which the check itself handles (to /login), so the global 401 handler leaves it alone.
 */
export const EARLY_QUERY_META = { early: true } as const;

function isEarlyQuery(meta: Record<string, unknown> | undefined): boolean {
  return meta?.early === true;
}

/** The query whose result *is* the sign-in state; its own guards react to a 401 from it. */
function isSessionQuery(queryKey: readonly unknown[]): boolean {
  const path = queryKey[0];
  return Array.isArray(path) && path.length === 2 && path[0] === "auth" && path[1] === "me";
}

export function createQueryClient(opts: { onUnauthorized: () => void }): QueryClient {
  // React Query assumes online until an event says otherwise; an app opened offline (issue 18) must
  // pause its calls from the start instead of failing each one.
  if (typeof navigator !== "undefined") onlineManager.setOnline(navigator.onLine);
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (
          isUnauthorized(error) &&
          !isSessionQuery(query.queryKey) &&
          !isEarlyQuery(query.options.meta)
        ) {
          opts.onUnauthorized();
        }
      },
    }),
    mutationCache: new MutationCache({
      onError: (error) => {
        if (isUnauthorized(error)) opts.onUnauthorized();
      },
    }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}
