/**
 * `study.answer` and `study.rate` called one at a time (issue 35 item 1, decision 407): the study
 * loop's two mutations, served without tRPC's fetch adapter (a `Request`, its headers and body stream,
 * an `AbortSignal` and the response's `Headers` per call: a tenth of the server's CPU in the loop).
 *
 * Only the plainest calls take this path: `POST /trpc/study.answer` or `/trpc/study.rate`, alone or
 * as a batch of one (`?batch=1`, as the web app's httpBatchLink sends it), with no other query
 * string (no method override), `content-type: application/json` exactly and no `trpc-accept`, and a
 * body that parses as JSON. Everything else goes on to tRPC's own handler, which answers it as
 * before. The procedure runs through `createCaller` (its input check, middlewares and errors are the
 * router's), and the answer is written as tRPC writes it: the same status, `{"result":{"data":…}}` or
 * `{"error":<the router's error shape>}` (in an array for a batch), `content-type` and `vary`.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { getHTTPStatusCode } from "@trpc/server/http";
import {
  getErrorShape,
  getTRPCErrorFromUnknown,
  transformTRPCResponse,
  type TRPCError,
  type TRPCResponse,
} from "@trpc/server/unstable-core-do-not-import";
import type { HttpContextFactory } from "../http-context";
import type { Context } from "./context";
import { appRouter, createCaller } from "./router";

const LEAN_PATHS = new Map<string, { path: LeanPath; batch: boolean }>([
  ["/trpc/study.answer", { path: "study.answer", batch: false }],
  ["/trpc/study.rate", { path: "study.rate", batch: false }],
  // The web app's httpBatchLink sends even one call as a batch of one.
  ["/trpc/study.answer?batch=1", { path: "study.answer", batch: true }],
  ["/trpc/study.rate?batch=1", { path: "study.rate", batch: true }],
]);

type LeanPath = "study.answer" | "study.rate";

/** tRPC's onError as the app writes it: this path reports its errors to the same function. */
export type LeanErrorHandler = (opts: {
  error: TRPCError;
  path: string | undefined;
  req: FastifyRequest;
}) => void;

/** How many calls took this path (the tests check that they did). */
export const leanCalls = { count: 0 };

function leanCallOf(req: FastifyRequest): { path: LeanPath; batch: boolean } | undefined {
  if (req.method !== "POST") return undefined;
  const call = LEAN_PATHS.get(req.url);
  if (!call) return undefined;
  if (req.headers["content-type"] !== "application/json") return undefined;
  if (req.headers["trpc-accept"] !== undefined) return undefined;
  return call;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The raw input (a batch's call "0"), or undefined when tRPC should read the body itself and answer
 * what it makes of it: an empty or broken body, a batch that is not an object.
 */
function inputOf(req: FastifyRequest, batch: boolean): { value: unknown } | undefined {
  // tRPC's fastify plugin keeps a JSON body as its text.
  const body = req.body;
  if (typeof body !== "string" || body === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!batch) return { value: parsed };
  return isObject(parsed) ? { value: parsed["0"] } : undefined;
}

/**
 * A preHandler for the tRPC scope: answers a plain call of the two mutations, or returns without
 * touching the reply so tRPC's handler runs.
 */
export function leanMutationsHook(makeContext: HttpContextFactory, onError: LeanErrorHandler) {
  const config = appRouter._def._config;
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const call = leanCallOf(req);
    if (!call) return;
    const input = inputOf(req, call.batch);
    if (!input) return;
    leanCalls.count += 1;
    const path = call.path;
    let ctx: Context | undefined;
    let answer: TRPCResponse;
    try {
      ctx = await makeContext(req, reply);
      const caller = createCaller(ctx);
      const procedure = path === "study.answer" ? caller.study.answer : caller.study.rate;
      answer = { result: { data: await procedure(input.value as never) } };
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      onError({ error, path, req });
      answer = {
        error: getErrorShape({ config, ctx, error, input: input.value, path, type: "mutation" }),
      };
    }
    const json = call.batch ? [answer] : answer;
    return (
      reply
        // As tRPC does, from the error shape (the formatter may change its status).
        .status(getHTTPStatusCode(json))
        .header("vary", "trpc-accept, accept")
        .header("content-type", "application/json")
        // As bytes: a string would be sent with a charset added, which tRPC's answer does not have.
        .send(Buffer.from(JSON.stringify(transformTRPCResponse(config, json))))
    );
  };
}
