import { TRPCError } from "@trpc/server";

/** The one domain error type; its code decides the HTTP status on every surface. */
export type AppErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "TOO_MANY_REQUESTS"
  | "SERVICE_UNAVAILABLE"
  | "INTERNAL_SERVER_ERROR";

export const HTTP_STATUS: Record<AppErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_SERVER_ERROR: 500,
};

export class AppError extends TRPCError {
  constructor(code: AppErrorCode, message: string, options?: { cause?: unknown }) {
    super({ code, message, cause: options?.cause });
    this.name = "AppError";
  }
}

export const notFound = (what = "Not found") => new AppError("NOT_FOUND", what);
export const forbidden = (message = "You do not have permission to do that") =>
  new AppError("FORBIDDEN", message);
export const badRequest = (message: string) => new AppError("BAD_REQUEST", message);

/** A unique constraint refused the write (PostgreSQL 23505), however deeply the driver wrapped it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
