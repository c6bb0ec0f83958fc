import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { ownedCounts, seedStudyData } from "./users.fixtures";

/** docs/ARCHITECTURE.md: every procedure of users, scores and admin for anonymous, user, other user, admin. */
let h: Harness;
let admin: TestUser;
let owner: TestUser;
let other: TestUser;
let ownerScoreId: string;

const score = { year: "2024", overallPercentile: 50 };

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user({ isAdmin: true });
  owner = await h.user({ isAdmin: false });
  other = await h.user({ isAdmin: false });
  ownerScoreId = (await owner.caller.scores.create(score))._id;
  await seedStudyData(h.db.db, owner.user.id);
});
afterAll(async () => {
  await h.close();
});

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof TRPCError) return err.code;
    throw err;
  }
  return "OK";
}

describe("authorization matrix: users, scores, admin", () => {
  it("refuses every procedure to anonymous callers", async () => {
    const a = h.anonymous;
    // Thunks: promises made up front would reject before anyone awaits them.
    const calls: (() => Promise<unknown>)[] = [
      () => a.users.updateProfile({ displayName: "x" }),
      () => a.users.updateSettings({ settings: { shareUsageData: true, publicProfile: true } }),
      () => a.users.markScoresOnboardingOffered(),
      () => a.users.exportStudyData(),
      () => a.users.exportQuestions(),
      () => a.users.resetStudyProgress(),
      () => a.users.deleteAccount(),
      () => a.scores.list(),
      () => a.scores.get({ id: ownerScoreId }),
      () => a.scores.create(score),
      () => a.scores.update({ ...score, id: ownerScoreId }),
      () => a.scores.delete({ id: ownerScoreId }),
      () => a.admin.users(),
      () => a.admin.stats(),
    ];
    for (const call of calls) expect(await code(call())).toBe("UNAUTHORIZED");
  });

  it("a regular user is refused the admin procedures (FORBIDDEN); an admin is not", async () => {
    for (const u of [owner, other]) {
      expect(await code(u.caller.admin.users())).toBe("FORBIDDEN");
      expect(await code(u.caller.admin.stats())).toBe("FORBIDDEN");
    }
    expect(await code(admin.caller.admin.users())).toBe("OK");
    expect(await code(admin.caller.admin.stats())).toBe("OK");
  });

  it("another user, and an admin, cannot reach the owner's score by id (NOT_FOUND)", async () => {
    for (const u of [other, admin]) {
      expect(await code(u.caller.scores.get({ id: ownerScoreId }))).toBe("NOT_FOUND");
      expect(await code(u.caller.scores.update({ ...score, id: ownerScoreId }))).toBe("NOT_FOUND");
      expect(await code(u.caller.scores.delete({ id: ownerScoreId }))).toBe("NOT_FOUND");
      expect((await u.caller.scores.list()).map((s) => s._id)).not.toContain(ownerScoreId);
    }
    expect((await owner.caller.scores.get({ id: ownerScoreId }))._id).toBe(ownerScoreId);
  });

  it("the users procedures only ever act on the caller: others' data is untouched", async () => {
    const before = await ownedCounts(h.db.db, owner.user.id);
    for (const u of [other, admin]) {
      const exported = await u.caller.users.exportStudyData();
      expect(exported.data.user._id).toBe(u.user.id);
      expect(JSON.stringify(exported)).not.toContain(owner.user.id);
      expect(JSON.stringify(await u.caller.users.exportQuestions())).not.toContain(owner.user.id);
      await u.caller.users.updateProfile({ displayName: "Changed" });
      await u.caller.users.updateSettings({
        settings: { shareUsageData: true, publicProfile: true },
      });
      await u.caller.users.resetStudyProgress();
    }
    expect(await ownedCounts(h.db.db, owner.user.id)).toEqual(before);
    const ownerJson = (await owner.caller.users.exportStudyData()).data.user;
    expect(ownerJson).toMatchObject({
      displayName: "",
      settings: { shareUsageData: false, publicProfile: false },
    });
    // Deleting the other account leaves the owner's in place.
    await other.caller.users.deleteAccount();
    expect(await ownedCounts(h.db.db, owner.user.id)).toEqual(before);
  });
});
