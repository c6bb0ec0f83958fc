import { expect, mainNav, test } from "./fixtures";

test("the bottom tabs reach every page and mark the current one", async ({ page, user }) => {
  await page.goto("/");
  await expect(page.getByRole("banner")).toContainText(user.username);
  const pages = [
    { tab: "Study", path: "/study", heading: "Study" },
    { tab: "Capture", path: "/capture", heading: "Capture Questions" },
    { tab: "Import", path: "/import", heading: "Import Questions" },
    { tab: "Browse", path: "/browse", heading: "Browse Questions" },
    { tab: "Settings", path: "/settings", heading: "Settings" },
    { tab: "Home", path: "/", heading: "Dashboard" },
  ];
  for (const { tab, path, heading } of pages) {
    const link = mainNav(page).getByRole("link", { name: tab });
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${path.replace("/", "\\/")}$`));
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(link).toHaveAttribute("aria-current", "page");
  }
  await expect(mainNav(page).getByRole("link", { name: "Admin" })).toHaveCount(0);
});

test("Settings opens the tab named in ?tab= and keeps the URL in step", async ({ page, user }) => {
  void user;
  await page.goto("/settings?tab=prite-scores");
  await expect(page.getByRole("tab", { name: "PRITE Scores" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  for (const label of ["Profile", "Data Management", "Privacy", "PRITE Scores", "Account"]) {
    await expect(page.getByRole("tab", { name: label })).toBeVisible();
  }
  await page.getByRole("tab", { name: "Privacy" }).click();
  await expect(page).toHaveURL(/\/settings\?tab=privacy$/);

  await page.goto("/settings?tab=nonsense");
  await expect(page.getByRole("tab", { name: "Profile" })).toHaveAttribute("aria-selected", "true");
});

test("the admin sees the Admin tab and page", async ({ page, admin }) => {
  await page.goto("/");
  await expect(page.getByRole("banner")).toContainText(admin.username);
  await mainNav(page).getByRole("link", { name: "Admin" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
});

test("with the session gone, a 401 lands on Sign In", async ({ page, context, user }) => {
  void user;
  await page.goto("/study");
  await expect(page.getByRole("heading", { level: 1, name: "Study" })).toBeVisible();
  await context.clearCookies();
  // Log Out is the one call every page makes today; it answers 401 now, which must still end on
  // Sign In. Later specs with page data can assert the same for queries.
  await page.getByRole("banner").getByRole("button", { name: "Log Out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/capture");
  await expect(page).toHaveURL(/\/login$/);
});
