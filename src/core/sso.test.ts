import { describe, expect, it } from "vitest";
import { ZRegisterInput } from "./schemas";
import { emailDomainAllowed, proposedUsername } from "./sso";

describe("proposedUsername", () => {
  it("takes the email's local part in the characters a username allows", () => {
    expect(proposedUsername("Jane.Doe+prite@program.example")).toBe("jane.doeprite");
    expect(proposedUsername("jane@program.example", 1)).toBe("jane2");
    expect(proposedUsername("jane@program.example", 9)).toBe("jane10");
  });

  it("is always a valid username, however odd the address", () => {
    for (const email of ["ø@x.example", "a@x.example", `${"x".repeat(60)}@x.example`, "@x"]) {
      for (const attempt of [0, 1, 123]) {
        const username = proposedUsername(email, attempt);
        const parsed = ZRegisterInput.safeParse({
          username,
          email: "a@b.example",
          password: "long enough pw",
          pgyLevel: "1",
        });
        expect([email, attempt, parsed.success]).toEqual([email, attempt, true]);
      }
    }
    expect(proposedUsername(`${"x".repeat(60)}@x.example`, 5)).toBe(`${"x".repeat(31)}6`);
  });
});

describe("emailDomainAllowed", () => {
  it("allows any domain without a list, and only listed ones with one, in any letter case", () => {
    expect(emailDomainAllowed("a@anything.example", [])).toBe(true);
    expect(emailDomainAllowed("a@Program.Example", ["program.example"])).toBe(true);
    expect(emailDomainAllowed("a@sub.program.example", ["program.example"])).toBe(false);
    expect(emailDomainAllowed("a@program.example.evil", ["program.example"])).toBe(false);
    expect(emailDomainAllowed("no-at-sign", ["program.example"])).toBe(false);
  });
});
