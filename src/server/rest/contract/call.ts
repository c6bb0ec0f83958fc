import type { RestMethod } from "../route";
import { bool, obj, type Shape } from "./shape";

/** How a call is authorised: anyone, a signed-in user (token in `x-auth-token`), or an admin. */
export type Access = "public" | "user" | "admin";

export interface RestCall {
  method: RestMethod;
  /** As registered: `:name` marks a path parameter. */
  path: string;
  /** A call in docs/product/rest-api.md, made by the original client; the others are ours, for REST clients and scripts. */
  spec: boolean;
  access: Access;
  /** What the client sends (body fields, or `query:` parameters); `—` for nothing. */
  request: string;
  status: number;
  response: Shape;
  /** Failures also carry `error` (the explanation and AI paths, whose clients read it). */
  errorField?: true;
}

export const success = (fields: Record<string, Shape>) => obj({ success: bool, ...fields });

export const callKey = (call: Pick<RestCall, "method" | "path">) => `${call.method} ${call.path}`;

/** The failure body of a call: `{message}`, `success: false` where its answer has `success`, `error` where read. */
export function errorBodyKeys(call: RestCall): string[] {
  const keys = ["message"];
  if (call.response.kind === "object" && "success" in call.response.fields) keys.push("success");
  if (call.errorField) keys.push("error");
  return keys;
}
