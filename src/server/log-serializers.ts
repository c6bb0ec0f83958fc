import pino from "pino";

/**
 * A failed query's parameters are the user's data (emails, question text, ids): an error is logged
 * with its SQL but never its parameters (issue 24). Drizzle puts them in the message and the stack
 * (`Failed query: …\nparams: …`) and in `params`; postgres.js in `parameters`.
 */
const PARAMETER_FIELDS = new Set(["params", "parameters", "detail", "where", "internal_query"]);

// PostgreSQL quotes the offending value in its own message ('invalid input syntax for type integer:
// "x"', 'Key (email)=(…)' goes to `detail`): a cause's quoted values are blanked.
const QUOTED = /"[^"]*"/g;

function withoutParamsLine(text: string): string {
  const at = text.indexOf("\nparams: ");
  if (at === -1) return text;
  const lineEnd = text.indexOf("\n", at + 1);
  return `${text.slice(0, at)}\nparams: [not logged]${lineEnd === -1 ? "" : text.slice(lineEnd)}`;
}

function scrub(value: unknown, depth: number, key = ""): unknown {
  if (typeof value === "string") {
    const text = withoutParamsLine(value);
    // Below the top level (a failed query's causes), messages are the database's own words.
    return depth > 1 && (key === "message" || key === "stack") ? text.replace(QUOTED, '"…"') : text;
  }
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (PARAMETER_FIELDS.has(key)) continue;
    out[key] = scrub(item, depth + 1, key);
  }
  return out;
}

/** pino's error serializer (with causes), then every parameter list and `params:` line dropped. */
export function errorWithoutParameters(err: Error): SerializedError {
  const serialized = err instanceof Error ? pino.stdSerializers.errWithCause(err) : err;
  return scrub(serialized, 0) as SerializedError;
}

interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** A password reset link's token is a password for 30 minutes (issue 33): never in a logged URL. */
export function urlWithoutTokens(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, "$1[not logged]");
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's own request serializer, with the URL's tokens left out. */
function requestWithoutTokens(req: LoggedRequest) {
  return {
    method: req.method,
    url: typeof req.url === "string" ? urlWithoutTokens(req.url) : undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

export const LOG_SERIALIZERS = {
  err: errorWithoutParameters,
  error: errorWithoutParameters,
  req: requestWithoutTokens,
};
