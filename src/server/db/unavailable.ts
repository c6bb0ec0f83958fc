import { TRPCError } from "@trpc/server";

export const DATABASE_UNAVAILABLE_MESSAGE =
  "The service is temporarily unavailable. Please try again in a moment.";

/** Node socket errors and postgres.js connection errors: the database cannot be reached. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/**
 * True when an error (or one of its causes) means the database is down or restarting rather than that
 * the query was wrong: SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, crash
 * recovery, cannot connect now), or a socket-level error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    if (typeof current === "object") {
      const code = (current as { code?: unknown }).code;
      if (typeof code === "string") {
        if (CONNECTION_CODES.has(code)) return true;
        if (code.startsWith("08") && code.length === 5) return true;
        if (code === "57P01" || code === "57P02" || code === "57P03") return true;
      }
      current = (current as { cause?: unknown }).cause;
    } else {
      return false;
    }
  }
  return false;
}

/** 503 instead of 500 while the database is away: clients retry, the load balancer sees it. */
export function unavailableError(cause: unknown): TRPCError {
  return new TRPCError({
    code: "SERVICE_UNAVAILABLE",
    message: DATABASE_UNAVAILABLE_MESSAGE,
    cause,
  });
}
