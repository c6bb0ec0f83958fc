import { describe, expect, it } from "vitest";
import { firstIssueMessage } from "./common";
import {
  ZChangePasswordInput,
  ZLoginInput,
  ZProfileInput,
  ZRegisterInput,
  ZSettingsInput,
} from "./auth";

const reg = {
  username: "dr.jane_doe-1",
  email: " Jane@Example.org ",
  password: "longenough",
  pgyLevel: "6+",
};

function msg(
  schema: { safeParse: (v: unknown) => { success: boolean; error?: unknown } },
  v: unknown,
) {
  const r = schema.safeParse(v);
  return r.success ? null : firstIssueMessage(r.error as Parameters<typeof firstIssueMessage>[0]);
}

describe("ZRegisterInput", () => {
  it("accepts a valid registration and trims the email", () => {
    expect(ZRegisterInput.parse(reg)).toEqual({ ...reg, email: "Jane@Example.org" });
  });

  it.each([
    [{ username: "" }, "Please enter all required fields"],
    [{ username: undefined }, "Please enter all required fields"],
    [{ email: "" }, "Please enter all required fields"],
    [{ password: undefined }, "Please enter all required fields"],
    [{ pgyLevel: "" }, "Please enter all required fields"],
    [{ username: "ab" }, "Username must be at least 3 characters"],
    [{ username: "a".repeat(33) }, "Username must be at most 32 characters"],
    [
      { username: "jane doe" },
      "Username may contain only letters, digits, dots, dashes and underscores",
    ],
    [{ email: "not-an-email" }, "Please enter a valid email address"],
    [{ password: "short" }, "Password must be at least 8 characters"],
    [{ password: "x".repeat(257) }, "Password must be at most 256 characters"],
    [{ pgyLevel: "7" }, "Please select a PGY level"],
    [{ confirmPassword: "different" }, "Passwords do not match"],
  ])("rejects %o", (patch, message) => {
    expect(msg(ZRegisterInput, { ...reg, ...patch })).toBe(message);
  });

  it("accepts every PGY level and a matching confirmation", () => {
    for (const pgyLevel of ["1", "2", "3", "4", "5", "6+", "Fellow", "Attending", "Other"]) {
      expect(
        ZRegisterInput.safeParse({ ...reg, pgyLevel, confirmPassword: reg.password }).success,
      ).toBe(true);
    }
  });
});

describe("ZLoginInput", () => {
  it("requires both fields", () => {
    expect(msg(ZLoginInput, { username: "jane" })).toBe("Please enter all fields");
    expect(msg(ZLoginInput, { username: " ", password: "x" })).toBe("Please enter all fields");
    expect(ZLoginInput.parse({ username: " jane ", password: " p " })).toEqual({
      username: "jane",
      password: " p ",
    });
  });
});

describe("ZProfileInput", () => {
  it("drops the username, trims texts and allows clearing selects", () => {
    expect(
      ZProfileInput.parse({
        username: "ignored",
        email: "a@b.co",
        displayName: " Jane ",
        pgyLevel: "",
        specialty: "Child Psychiatry",
        institution: null,
      }),
    ).toEqual({
      email: "a@b.co",
      displayName: "Jane",
      pgyLevel: "",
      specialty: "Child Psychiatry",
      institution: "",
    });
  });
  it.each([
    [{ email: "nope" }, "Please enter a valid email address"],
    [{ displayName: "x".repeat(101) }, "Display name must be at most 100 characters"],
    [{ institution: "x".repeat(201) }, "Institution must be at most 200 characters"],
    [{ pgyLevel: "PGY-1" }, "Please select a PGY level"],
    [{ specialty: "Surgery" }, "Please select a specialty from the list"],
  ])("rejects %o", (input, message) => {
    expect(msg(ZProfileInput, input)).toBe(message);
  });
});

describe("ZSettingsInput and ZChangePasswordInput", () => {
  it("needs both booleans", () => {
    expect(
      ZSettingsInput.parse({ settings: { shareUsageData: true, publicProfile: false } }),
    ).toEqual({
      settings: { shareUsageData: true, publicProfile: false },
    });
    expect(
      ZSettingsInput.safeParse({ settings: { shareUsageData: "yes", publicProfile: false } })
        .success,
    ).toBe(false);
  });
  it("checks the new password", () => {
    expect(msg(ZChangePasswordInput, { currentPassword: "", newPassword: "longenough" })).toBe(
      "Please enter your current password",
    );
    expect(msg(ZChangePasswordInput, { currentPassword: "old", newPassword: "short" })).toBe(
      "Password must be at least 8 characters",
    );
    expect(
      msg(ZChangePasswordInput, {
        currentPassword: "old",
        newPassword: "longenough",
        confirmPassword: "x",
      }),
    ).toBe("Passwords do not match");
  });
});
