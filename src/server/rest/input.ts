import { TRPCError } from "@trpc/server";
import type { z } from "zod";
import { withoutNul } from "../../core/text";

/**
 * A REST request that does not make its procedure's input: 400 with the schema's first issue, the
 * words the procedure itself would answer with. `adapter.ts` answers 401 instead to a caller who is
 * not signed in on a path that needs it, since the procedure checks the session before its input.
 */
export class RestInputError extends TRPCError {
  constructor(cause: z.ZodError) {
    super({ code: "BAD_REQUEST", cause });
  }
}

/**
 * The procedure's input fields, each with what the request sent for it. TypeScript checks the names
 * (a renamed or new required field fails to compile); the procedure's schema checks the values.
 */
export type RestFields<T> = { [K in keyof NonNullable<T>]: unknown };

/**
 * Parsed as the procedure parses it, NUL characters aside: the procedure refuses or drops those by
 * its own rule (trpc/init.ts), so a value that is valid without them must reach it to say which.
 */
function assertInput<S extends z.ZodType>(schema: S, value: unknown): asserts value is z.input<S> {
  const result = schema.safeParse(withoutNul(value));
  if (!result.success) throw new RestInputError(result.error);
}

/**
 * The request body, when it is the procedure's input as it stands. The value sent goes on unchanged:
 * the procedure parses it once more, as it parses a tRPC call, so its transforms run once.
 */
export function bodyInput<S extends z.ZodType>(schema: S, body: unknown): z.input<S> {
  assertInput(schema, body);
  return body;
}

/** The procedure's input gathered from the path, the query and the body. */
export function fieldsInput<S extends z.ZodType>(
  schema: S,
  fields: RestFields<z.input<S>>,
): z.input<S> {
  assertInput(schema, fields);
  return fields;
}
