import type { APIRequestContext } from "@playwright/test";
import {
  expect,
  expectDashboard,
  makeUser,
  mainNav,
  test,
  trpcMutation,
  trpcQuery,
} from "./fixtures";

// Issue 6: the Admin Dashboard, for admins only.

interface AdminStats {
  totalUsers: number;
  activeUsers: number;
  questionsAdded: number;
  averageQuestionsPerUser: number;
  pgyDistribution: { label: string; count: number }[];
}

function levelCount(stats: AdminStats, label: string): number {
  return stats.pgyDistribution.find((entry) => entry.label === label)?.count ?? 0;
}

test("an admin sees the statistics, the PGY counts and a searchable, filterable user list", async ({
  page,
  admin,
  newApiContext,
}) => {
  const before = await trpcQuery<AdminStats>(page.request, "admin.stats");
  // Two more users, signed in from a client of their own: a Fellow, and one whose PGY level was
  // cleared and who adds a question.
  const fellow = makeUser({ prefix: "fellow", pgyLevel: "Fellow" });
  const unset = makeUser({ prefix: "nolevel" });
  const other: APIRequestContext = await newApiContext();
  await trpcMutation(other, "auth.register", { ...fellow, confirmPassword: fellow.password });
  await trpcMutation(other, "auth.logout");
  await trpcMutation(other, "auth.register", { ...unset, confirmPassword: unset.password });
  await trpcMutation(other, "users.updateProfile", { pgyLevel: "" });
  await trpcMutation(other, "questions.create", {
    text: "Which scale rates mania?",
    options: { A: "YMRS", B: "PHQ-9" },
    correctAnswer: "A",
    part: "2",
    year: new Date().getFullYear(),
  });

  // The server counted exactly what happened.
  const stats = await trpcQuery<AdminStats>(page.request, "admin.stats");
  expect(stats.totalUsers).toBe(before.totalUsers + 2);
  expect(stats.activeUsers).toBe(before.activeUsers + 2);
  expect(stats.questionsAdded).toBe(before.questionsAdded + 1);
  expect(stats.averageQuestionsPerUser).toBe(Math.round(stats.questionsAdded / stats.totalUsers));
  expect(levelCount(stats, "Fellow")).toBe(levelCount(before, "Fellow") + 1);
  expect(levelCount(stats, "Unspecified")).toBe(levelCount(before, "Unspecified") + 1);

  // And the cards show exactly those numbers: "1" must not pass for "11".
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
  const statistics = page.getByRole("region", { name: "User statistics" });
  for (const [label, value] of [
    ["Total Users", stats.totalUsers],
    ["Active Users", stats.activeUsers],
    ["Questions Added", stats.questionsAdded],
    ["Average Questions/User", stats.averageQuestionsPerUser],
  ] as const) {
    await expect(
      statistics.getByText(label, { exact: true }).locator("xpath=following-sibling::*[1]"),
    ).toHaveText(value.toLocaleString("en-US"));
  }
  const levels = page.getByRole("list", { name: "Users by PGY Level" }).getByRole("listitem");
  await expect(levels).toHaveText(stats.pgyDistribution.map((e) => `${e.label}${e.count}`));
  await expect(levels.filter({ hasText: "Fellow" })).toHaveText(
    `Fellow${levelCount(stats, "Fellow")}`,
  );
  await expect(levels.filter({ hasText: "Unspecified" })).toHaveText(
    `Unspecified${levelCount(stats, "Unspecified")}`,
  );

  const users = page.getByRole("table", { name: "Users" });
  await expect(users.getByRole("row", { name: new RegExp(admin.username) })).toContainText("Admin");
  const unsetRow = users.getByRole("row", { name: new RegExp(unset.username) });
  await expect(unsetRow).toContainText("Not specified");
  await expect(unsetRow).toContainText("User");
  await expect(unsetRow.getByRole("cell").nth(4)).toHaveText("1");

  const search = page.getByPlaceholder("Search by username or email");
  await search.fill(fellow.email.toUpperCase());
  await expect(users.getByRole("row")).toHaveCount(2);
  await expect(users).toContainText(fellow.username);
  await expect(users).toContainText("Fellow");

  await search.fill("");
  await page.getByRole("combobox", { name: "Filter by PGY level" }).click();
  await page.getByRole("option", { name: "Fellow", exact: true }).click();
  await expect(users).toContainText(fellow.username);
  await expect(users).not.toContainText(admin.username);

  await search.fill("nobody-matches-this");
  await expect(page.getByText("No users found matching the filter criteria")).toBeVisible();
  await page.getByRole("combobox", { name: "Filter by PGY level" }).click();
  await expect(page.getByRole("option", { name: "All PGY Levels" })).toBeVisible();
});

test("a failed load reads 'Failed to load users. Please try again later.'", async ({
  page,
  admin,
}) => {
  expect(admin.username).toBeTruthy();
  await page.route(/\/trpc\/.*admin\.users/, (route) => route.abort());
  await page.goto("/admin");
  await expect(page.getByText("Failed to load users. Please try again later.")).toBeVisible({
    timeout: 15_000,
  });
});

test("a regular user has no Admin tab and is sent home from /admin", async ({ page, user }) => {
  await page.goto("/");
  await expectDashboard(page, user);
  await expect(mainNav(page).getByRole("link", { name: "Admin" })).toHaveCount(0);
  await page.goto("/admin");
  await expectDashboard(page, user);
  await expect(page.getByText("Admin Dashboard")).toHaveCount(0);
  const api = await page.request.get("/api/admin/users");
  expect(api.status()).toBe(403);
});

test("the audit log on a 375 px phone: a role change by whom, filtered by user and kind", async ({
  page,
  admin,
  newApiContext,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const resident = makeUser({ prefix: "audited" });
  const other: APIRequestContext = await newApiContext();
  await trpcMutation(other, "auth.register", { ...resident, confirmPassword: resident.password });
  await trpcMutation(page.request, "admin.setRole", { username: resident.username, isAdmin: true });

  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Audit Log" })).toBeVisible();
  await page.getByPlaceholder("Filter by username").fill(resident.username);
  await page.getByRole("combobox", { name: "Filter by event" }).click();
  await page.getByRole("option", { name: "Role changed", exact: true }).click();
  const log = page.getByRole("list", { name: "Audit log" });
  await expect(log.getByRole("listitem")).toHaveCount(1);
  await expect(log).toContainText(`${admin.username} → ${resident.username}`);
  await expect(log).toContainText('{"role":"admin"}');
  // Readable without sideways scrolling.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.getByRole("button", { name: "Older" })).toBeDisabled();
});
