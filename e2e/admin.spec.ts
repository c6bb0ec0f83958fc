import type { APIRequestContext } from "@playwright/test";
import { expect, makeUser, mainNav, expectDashboard, test } from "./fixtures";

// Issue 6: the Admin Dashboard, for admins only.

async function trpcPost(request: APIRequestContext, procedure: string, input: unknown) {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const response = await request.post(`/trpc/${procedure}`, { data: input, headers: { origin } });
  if (!response.ok())
    throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: unknown } }).result.data;
}

test("an admin sees the statistics, the PGY counts and a searchable, filterable user list", async ({
  page,
  admin,
  browser,
}) => {
  // Two more users in their own browser context: a Fellow, and one whose PGY level was cleared.
  const fellow = makeUser({ prefix: "fellow", pgyLevel: "Fellow" });
  const unset = makeUser({ prefix: "nolevel" });
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  await trpcPost(other.request, "auth.register", { ...fellow, confirmPassword: fellow.password });
  await trpcPost(other.request, "auth.logout", {});
  await trpcPost(other.request, "auth.register", { ...unset, confirmPassword: unset.password });
  await trpcPost(other.request, "users.updateProfile", { pgyLevel: "" });
  await trpcPost(other.request, "questions.create", {
    text: "Which scale rates mania?",
    options: { A: "YMRS", B: "PHQ-9" },
    correctAnswer: "A",
    part: "2",
    year: new Date().getFullYear(),
  });
  await other.close();

  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
  const statsResponse = await page.request.get("/trpc/admin.stats");
  const stats = (
    (await statsResponse.json()) as {
      result: {
        data: {
          totalUsers: number;
          activeUsers: number;
          questionsAdded: number;
          averageQuestionsPerUser: number;
        };
      };
    }
  ).result.data;
  const statistics = page.getByRole("region", { name: "User statistics" });
  for (const [label, value] of [
    ["Total Users", stats.totalUsers],
    ["Active Users", stats.activeUsers],
    ["Questions Added", stats.questionsAdded],
    ["Average Questions/User", stats.averageQuestionsPerUser],
  ] as const) {
    await expect(
      statistics.locator("div", { has: page.getByText(label, { exact: true }) }).last(),
    ).toContainText(value.toLocaleString("en-US"));
  }
  expect(stats.totalUsers).toBeGreaterThanOrEqual(3);
  const levels = page.getByRole("list", { name: "Users by PGY Level" });
  await expect(levels).toContainText("Fellow");
  await expect(levels).toContainText("Unspecified");

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
