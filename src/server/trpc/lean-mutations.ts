/**
 * `study.answer` and `study.rate` called one at a time (issue 35 item 1, decision 407): the study
 * loop's two mutations, served without tRPC's fetch adapter (a `Request`, its headers and body stream,
 * an `AbortSignal` and the response's `Headers` per call: a tenth of the server's CPU in the loop).
 *
 * Only the plainest call takes this path: `POST /trpc/study.answer` or `/trpc/study.rate` with no
 * query string (no batch, no method override), `content-type: application/json` exactly and no
 * `trpc-accept`, and a body that parses as JSON. Everything else goes on to tRPC's own handler, which
 * answers it as before. The procedure runs through `createCaller` (its input check, middlewares and
 * errors are the router's), and the answer is written as tRPC writes a single call: the same status,
 * `{"result":{"data":…}}` or `{"error":<the router's error shape>}`, `content-type` and `vary`.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import {
  getErrorShape,
  getTRPCErrorFromUnknown,
  transformTRPCResponse,
  type TRPCError,
} from "@trpc/server/unstable-core-do-not-import";
import type { HttpContextFactory } from "../http-context";
import type { Context } from "./context";
import { appRouter, createCaller } from "./router";

const LEAN_PATHS = new Map([
  ["/trpc/study.answer", "study.answer"],
  ["/trpc/study.rate", "study.rate"],
] as const);

type LeanPath = "study.answer" | "study.rate";

/** tRPC's onError as the app writes it: this path reports its errors to the same function. */
export type LeanErrorHandler = (opts: {
  error: TRPCError;
  path: string | undefined;
  req: FastifyRequest;
}) => void;

/** How many calls took this path (the tests check that they did). */
export const leanCalls = { count: 0 };

function leanPathOf(req: FastifyRequest): LeanPath | undefined {
  if (req.method !== "POST") return undefined;
  const path = LEAN_PATHS.get(req.url as "/trpc/study.answer");
  if (!path) return undefined;
  if (req.headers["content-type"] !== "application/json") return undefined;
  if (req.headers["trpc-accept"] !== undefined) return undefined;
  return path;
}

/** The raw input, or undefined when tRPC should read the body itself (and answer what it makes of it). */
function inputOf(req: FastifyRequest): { value: unknown } | undefined {
  const body = req.body;
  // tRPC's fastify plugin keeps a JSON body as its text.
  // An empty body is tRPC's to refuse in its own words.
  if (typeof body !== "string" || body === "") return undefined;
  try {
    return { value: JSON.parse(body) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * A preHandler for the tRPC scope: answers a plain call of the two mutations, or returns without
 * touching the reply so tRPC's handler runs.
 */
export function leanMutationsHook(makeContext: HttpContextFactory, onError: LeanErrorHandler) {
  const config = appRouter._def._config;
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const path = leanPathOf(req);
    if (!path) return;
    const input = inputOf(req);
    if (!input) return;
    leanCalls.count += 1;
    let ctx: Context | undefined;
    let body: unknown;
    let status = 200;
    try {
      ctx = await makeContext(req, reply);
      const caller = createCaller(ctx);
      const procedure = path === "study.answer" ? caller.study.answer : caller.study.rate;
      const data = await procedure(input.value as never);
      body = { result: { data } };
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      onError({ error, path, req });
      status = getHTTPStatusCodeFromError(error);
      body = {
        error: getErrorShape({ config, ctx, error, input: input.value, path, type: "mutation" }),
      };
    }
    return (
      reply
        .status(status)
        .header("vary", "trpc-accept, accept")
        .header("content-type", "application/json")
        // As bytes: a string would be sent with a charset added, which tRPC's answer does not have.
        .send(Buffer.from(JSON.stringify(transformTRPCResponse(config, body as never))))
    );
  };
}
