import { expect, mainNav, navLink, test } from "./fixtures";

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
    await (await navLink(page, tab)).click();
    await expect(page).toHaveURL(new RegExp(`${path.replace("/", "\\/")}$`));
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(await navLink(page, tab)).toHaveAttribute("aria-current", "page");
    await page.keyboard.press("Escape");
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
  for (const label of [
    "Profile",
    "Data Management",
    "Privacy",
    "Study",
    "PRITE Scores",
    "Account",
  ]) {
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
  await (await navLink(page, "Admin")).click();
  await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
});

test("with the session gone, a 401 from a page's query lands on Sign In", async ({
  page,
  context,
  user,
}) => {
  void user;
  await page.goto("/study");
  await expect(page.getByRole("heading", { level: 1, name: "Study" })).toBeVisible();
  // The Study page's own data has arrived (so none of its calls is still to come).
  await expect(page.getByTestId("overview-due")).toHaveText("0");
  await page.waitForLoadState("networkidle");

  // The session ends behind the page's back. The signed-in state is cached, so only the Browse
  // page's own queries go to the server; their 401 must send the browser to Sign In through the
  // global handler (no Log Out, no sign-in check is involved).
  await context.clearCookies();
  const calls: { procedures: string; status: number }[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith("/trpc/")) {
      calls.push({ procedures: url.pathname.slice("/trpc/".length), status: response.status() });
    }
  });
  await mainNav(page).getByRole("link", { name: "Browse" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  // The first call after the cookies went was the Browse page's query, answered 401 (Sign In then
  // checks the session for itself, which is why later calls may ask auth.me).
  expect(calls[0]?.procedures).toMatch(/^questions\.(search|categories)\b/);
  expect(calls[0]?.procedures).not.toContain("auth.");
  expect(calls[0]?.status).toBe(401);

  // And the signed-in pages stay closed.
  await page.goto("/capture");
  await expect(page).toHaveURL(/\/login$/);
});

test("'Loading...' shows while the sign-in state loads, then the page", async ({ page, user }) => {
  // Hold the sign-in check until the loading state has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/trpc\/[^?]*auth\.me/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/");
  const loading = page.getByRole("status").filter({ hasText: "Loading..." });
  await expect(loading).toBeVisible();
  // The app itself shows it (index.html's boot screen has been replaced by then).
  await expect(page.locator(".boot-screen")).toHaveCount(0);
  await expect(page.getByRole("banner")).toHaveCount(0);
  release();
  await expect(page.getByText(`Welcome, ${user.username}`)).toBeVisible();
  await expect(loading).toHaveCount(0);
});

test("the boot screen shows without the stylesheet, and the app waits for it (fetched once)", async ({
  page,
  user,
}) => {
  // Hold the app's stylesheet: the boot screen is styled inline and must not wait for it; the app must
  // not draw its first screen unstyled (decision 275).
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const sheets: string[] = [];
  await page.route(/\/assets\/[^/]+\.css$/, async (route) => {
    sheets.push(route.request().url());
    await held;
    await route.continue();
  });
  // Not "load": the held preload holds the load event too.
  await page.goto("/", { waitUntil: "domcontentloaded" });
  const boot = page.locator(".boot-screen");
  await expect(boot).toBeVisible();
  await expect(boot.locator(".boot-spinner")).toHaveCSS("border-radius", "9999px");
  // The session check and the bundle have long answered; the page still waits for its styles.
  await page.waitForTimeout(1_000);
  await expect(page.getByText(`Welcome, ${user.username}`)).toHaveCount(0);
  release();
  await expect(page.getByText(`Welcome, ${user.username}`)).toBeVisible();
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(246, 248, 248)");
  expect(sheets).toHaveLength(1);
});

test("a stylesheet that fails to load leaves the app usable, unstyled", async ({ page, user }) => {
  await page.route(/\/assets\/[^/]+\.css$/, (route) => route.abort());
  await page.goto("/", { waitUntil: "domcontentloaded" });
  await expect(page.getByText(`Welcome, ${user.username}`)).toBeVisible();
  await expect(page.locator(".boot-screen")).toHaveCount(0);
});
