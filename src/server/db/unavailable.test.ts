import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { createCaller } from "../trpc/router";
import { createContextInner } from "../trpc/context";
import type { Db } from "./client";
import { isDatabaseUnavailable } from "./unavailable";

describe("isDatabaseUnavailable", () => {
  it.each([
    [{ code: "ECONNREFUSED" }, true],
    [{ code: "CONNECTION_CLOSED" }, true],
    [{ code: "57P01" }, true], // admin shutdown (a restart)
    [{ code: "57P03" }, true], // cannot connect now (starting up)
    [{ code: "08006" }, true],
    [new Error("wrapped", { cause: { code: "ECONNRESET" } }), true],
    [{ code: "23505" }, false], // unique violation: a real error
    [new Error("boom"), false],
    [null, false],
  ])("%j → %s", (error, expected) => {
    expect(isDatabaseUnavailable(error)).toBe(expected);
  });
});

describe("a procedure whose database is down", () => {
  it("answers SERVICE_UNAVAILABLE with the product's message", async () => {
    const down = new Proxy(
      {},
      {
        get: () => () => {
          throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
            code: "ECONNREFUSED",
          });
        },
      },
    ) as unknown as Db;
    const caller = createCaller(createContextInner({ db: down }));
    const error = await caller.auth
      .login({ username: "someone", password: "a long password" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("SERVICE_UNAVAILABLE");
    expect((error as TRPCError).message).toBe(
      "The service is temporarily unavailable. Please try again in a moment.",
    );
  });
});
