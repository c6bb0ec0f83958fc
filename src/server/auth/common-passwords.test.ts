/** Issue 24 item 9: passwords on the common-passwords list are refused wherever one is set. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test/harness";
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "./common-passwords";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const COMMON = ["password123", "qwerty123", "11111111", "iloveyou2", "PassWord123"];

describe("the common-passwords list", () => {
  it.each(COMMON)("holds %s in any letter case", async (password) => {
    expect(await isCommonPassword(password)).toBe(true);
  });

  it.each(["correct horse battery", "a long and unusual passphrase", "Plum-Orbit-Kettle-42"])(
    "does not hold %s",
    async (password) => {
      expect(await isCommonPassword(password)).toBe(false);
    },
  );
});

describe("setting a common password", () => {
  it.each(COMMON)(
    "registration over REST refuses %s with a message that says why",
    async (password) => {
      const app = await h.app();
      const name = `common_${password.length}_${Math.random().toString(36).slice(2, 6)}`;
      const res = await app.inject({
        method: "POST",
        url: "/api/auth/register",
        payload: {
          username: name,
          email: `${name}@example.test`,
          password,
          confirmPassword: password,
          pgyLevel: "1",
        },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: COMMON_PASSWORD_MESSAGE });
    },
  );

  it("the CLI's users add (the same procedure in process) refuses one too", async () => {
    await expect(
      h.anonymous.auth.register({
        username: "cli_common",
        email: "cli_common@example.test",
        password: "qwerty123",
        confirmPassword: "qwerty123",
        pgyLevel: "1",
      } as never),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: COMMON_PASSWORD_MESSAGE });
  });

  it("a password change refuses one and keeps the old password", async () => {
    const { user } = await h.user({ username: "changer", password: "the owner's own passphrase" });
    const caller = await h.callerFor(user);
    await expect(
      caller.auth.changePassword({
        currentPassword: "the owner's own passphrase",
        newPassword: "iloveyou2",
        confirmPassword: "iloveyou2",
      } as never),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: COMMON_PASSWORD_MESSAGE });
    expect((await h.signIn("changer", "the owner's own passphrase")).statusCode).toBe(200);
  });
});
