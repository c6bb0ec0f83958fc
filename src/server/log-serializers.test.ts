import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { errorWithoutParameters } from "./log-serializers";

describe("errorWithoutParameters", () => {
  it("keeps a failed query's SQL and drops its parameters, the database's detail and quoted values", () => {
    const cause = Object.assign(
      new Error(
        'duplicate key value violates unique constraint "users_email_key" for "dana@example.test"',
      ),
      { code: "23505", detail: "Key (email)=(dana@example.test) already exists.", where: "dana" },
    );
    const err = new DrizzleQueryError(
      'insert into "users" ("email") values ($1)',
      ["dana@example.test"],
      cause,
    );
    const logged = JSON.stringify(errorWithoutParameters(err));
    expect(logged).toContain('insert into \\"users\\"');
    expect(logged).toContain("23505");
    expect(logged).not.toContain("dana");
  });
});
