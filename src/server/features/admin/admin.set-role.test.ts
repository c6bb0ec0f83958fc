import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { ADMIN_MESSAGES } from "./admin.service";

let h: Harness;
let admin: TestUser;
let resident: TestUser;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user(); // the first account is the admin
  resident = await h.user();
});
afterAll(async () => {
  await h.close();
});

const isAdmin = async (id: string) =>
  (await h.db.db.select({ a: users.isAdmin }).from(users).where(eq(users.id, id)))[0]?.a;

describe("admin.setRole", () => {
  it("refuses anonymous callers and regular users", async () => {
    const input = { username: resident.user.username, isAdmin: true };
    await expect(h.anonymous.admin.setRole(input)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(resident.caller.admin.setRole(input)).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await isAdmin(resident.user.id)).toBe(false);
  });

  it("promotes and demotes by username, ignoring case, and says when nothing changed", async () => {
    const up = await admin.caller.admin.setRole({
      username: resident.user.username.toUpperCase(),
      isAdmin: true,
    });
    expect(up).toMatchObject({ changed: true, user: { _id: resident.user.id, isAdmin: true } });
    expect(await isAdmin(resident.user.id)).toBe(true);
    const again = await admin.caller.admin.setRole({
      username: resident.user.username,
      isAdmin: true,
    });
    expect(again.changed).toBe(false);
    const down = await admin.caller.admin.setRole({
      username: resident.user.username,
      isAdmin: false,
    });
    expect(down).toMatchObject({ changed: true, user: { isAdmin: false } });
    expect(await isAdmin(resident.user.id)).toBe(false);
  });

  it("an unknown user is NOT_FOUND; an empty name is a validation message", async () => {
    await expect(
      admin.caller.admin.setRole({ username: "nobody-here", isAdmin: true }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: ADMIN_MESSAGES.USER_NOT_FOUND });
    await expect(admin.caller.admin.setRole({ username: " ", isAdmin: true })).rejects.toThrow();
  });

  it("the last admin cannot demote themselves; with a second admin they can", async () => {
    await expect(
      admin.caller.admin.setRole({ username: admin.user.username, isAdmin: false }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: ADMIN_MESSAGES.LAST_ADMIN });
    expect(await isAdmin(admin.user.id)).toBe(true);

    const second = await h.user({ isAdmin: true });
    const down = await admin.caller.admin.setRole({
      username: admin.user.username,
      isAdmin: false,
    });
    expect(down.changed).toBe(true);
    // Now `second` is the last admin, and the same rule protects them.
    await expect(
      second.caller.admin.setRole({ username: second.user.username, isAdmin: false }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await h.db.db.update(users).set({ isAdmin: true }).where(eq(users.id, admin.user.id));
  });
});
