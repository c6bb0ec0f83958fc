import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { questions, users } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { restAs } from "../users/users.fixtures";
import { adminStats } from "./admin.service";

let h: Harness;
let admin: TestUser;
let resident: TestUser;
const DAY = 86_400_000;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user({ pgyLevel: "Attending" });
  resident = await h.user({ pgyLevel: "1" });
});
afterAll(async () => {
  await h.close();
});

const rest = (...args: Parameters<ReturnType<typeof restAs>>) => restAs(h)(...args);

async function addQuestions(userId: string, n: number) {
  for (let i = 0; i < n; i++) {
    await h.db.db.insert(questions).values({
      creatorId: userId,
      text: `Admin fixture ${i}`,
      options: { A: "a", B: "b" },
      correctAnswer: "A",
      part: "1",
      year: 2024,
    });
  }
}

describe("authorization", () => {
  it.each(["/api/admin/users", "/api/admin/stats"])(
    "%s: 401 anonymous, 403 user, 200 admin",
    async (url) => {
      const anon = await rest("GET", url, null);
      expect(anon.statusCode).toBe(401);
      const user = await rest("GET", url, resident);
      expect(user.statusCode).toBe(403);
      expect(user.json()).toEqual({ message: "You do not have permission to access this page." });
      expect((await rest("GET", url, admin)).statusCode).toBe(200);
    },
  );

  it("admin procedures refuse anonymous (UNAUTHORIZED) and regular users (FORBIDDEN)", async () => {
    for (const call of [() => h.anonymous.admin.users(), () => h.anonymous.admin.stats()]) {
      await expect(call()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    }
    for (const call of [() => resident.caller.admin.users(), () => resident.caller.admin.stats()]) {
      await expect(call()).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
  });

  it("a demoted admin loses access on the next request", async () => {
    const former = await h.user({ isAdmin: true });
    expect((await rest("GET", "/api/admin/users", former)).statusCode).toBe(200);
    await h.db.db.update(users).set({ isAdmin: false }).where(eq(users.id, former.user.id));
    expect((await rest("GET", "/api/admin/users", former)).statusCode).toBe(403);
  });
});

describe("GET /api/admin/users", () => {
  it("lists every user with the fields in docs/product/rest-api.md and their question counts", async () => {
    await addQuestions(resident.user.id, 3);
    const res = await rest("GET", "/api/admin/users", admin);
    const list = res.json() as Record<string, unknown>[];
    const row = list.find((u) => u._id === resident.user.id);
    expect(row).toEqual({
      _id: resident.user.id,
      username: resident.user.username,
      email: resident.user.email,
      pgyLevel: "1",
      createdAt: resident.user.createdAt.toISOString(),
      lastLogin: expect.any(String),
      questionsAdded: 3,
      isAdmin: false,
    });
    expect(list.find((u) => u._id === admin.user.id)).toMatchObject({
      isAdmin: true,
      questionsAdded: 0,
    });
    expect(JSON.stringify(list)).not.toMatch(/passwordHash|argon2|settings/);
    expect(await admin.caller.admin.users()).toEqual(list);
  });
});

describe("admin.stats", () => {
  it("counts on the server: totals, active users (30 days), average and PGY distribution", async () => {
    const local = await createHarness();
    try {
      const now = new Date();
      const a = await local.user({ pgyLevel: "3" });
      const b = await local.user({ pgyLevel: "3" });
      const c = await local.user({ pgyLevel: "Fellow" });
      const d = await local.user({ pgyLevel: "1" });
      const set = (id: string, v: Partial<typeof users.$inferInsert>) =>
        local.db.db.update(users).set(v).where(eq(users.id, id));
      // b: signed in 31 days ago → inactive; c: never signed in, created 10 days ago → active;
      // d: never signed in, created 40 days ago → inactive; with an empty level.
      await set(b.user.id, { lastLogin: new Date(now.getTime() - 31 * DAY) });
      await set(c.user.id, { lastLogin: null, createdAt: new Date(now.getTime() - 10 * DAY) });
      await set(d.user.id, {
        lastLogin: null,
        createdAt: new Date(now.getTime() - 40 * DAY),
        pgyLevel: "",
      });
      for (const [u, n] of [
        [a, 4],
        [b, 3],
        [c, 0],
        [d, 2],
      ] as const) {
        for (let i = 0; i < n; i++) {
          await local.db.db.insert(questions).values({
            creatorId: u.user.id,
            text: `Q ${i}`,
            options: { A: "a", B: "b" },
            part: "2",
            year: 2023,
          });
        }
      }
      const stats = await a.caller.admin.stats();
      expect(stats).toEqual({
        totalUsers: 4,
        activeUsers: 2,
        questionsAdded: 9,
        averageQuestionsPerUser: 2, // 9 / 4 = 2.25 → 2
        pgyDistribution: [
          { level: "3", label: "PGY-3", count: 2 },
          { level: "Fellow", label: "Fellow", count: 1 },
          { level: "", label: "Unspecified", count: 1 },
        ],
      });
      // Rounding goes up from .5: 10 / 4 = 2.5 → 3.
      await local.db.db.insert(questions).values({
        creatorId: c.user.id,
        text: "one more",
        options: { A: "a", B: "b" },
        part: "1",
        year: 2023,
      });
      expect((await a.caller.admin.stats()).averageQuestionsPerUser).toBe(3);
      // A value outside the known levels counts as Unspecified too.
      await set(c.user.id, { pgyLevel: "PGY-9" });
      expect((await a.caller.admin.stats()).pgyDistribution.at(-1)).toEqual({
        level: "",
        label: "Unspecified",
        count: 2,
      });
      // 30 days is inclusive at the boundary.
      await set(b.user.id, { lastLogin: new Date(now.getTime() - 30 * DAY + 60_000) });
      expect((await a.caller.admin.stats()).activeUsers).toBe(3);
    } finally {
      await local.close();
    }
  });

  it("is all zeros with no users", async () => {
    const empty = await createHarness();
    try {
      expect(await adminStats(empty.db.db, new Date())).toEqual({
        totalUsers: 0,
        activeUsers: 0,
        questionsAdded: 0,
        averageQuestionsPerUser: 0,
        pgyDistribution: [],
      });
    } finally {
      await empty.close();
    }
  });
});
