import type { FastifyReply, FastifyRequest } from "fastify";
import type { Caller, RestOptions } from "./adapter";

export type RestMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Adds one documented path; `rest/index.ts` binds it to the app and its context factory. */
export type Route = (
  method: RestMethod,
  url: string,
  handler: (caller: Caller, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  opts?: RestOptions,
) => void;

/**
 * What each area's route file exports. It lives here, not in `rest/index.ts`, so the route files import
 * nothing that imports them (index → route files → route.ts, no circle).
 */
export type RestRegistrar = (route: Route) => void;
