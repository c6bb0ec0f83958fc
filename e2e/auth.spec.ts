import type { Page } from "@playwright/test";
import {
  expect,
  expectDashboard,
  fillRegisterForm,
  logOutViaHeader,
  mainNav,
  navLink,
  makeUser,
  registerViaUi,
  signInViaUi,
  skipScoresOnboarding,
  test,
} from "./fixtures";

// Issue 2's journey. It runs on a server of its own with no accounts at all (seedAdmin: false), so
// its first registration is the database's first account, which becomes the admin, whatever ran
// before it. The other tests here share a server whose admin the fixture registered.
test.describe("on a server with no accounts yet", () => {
  test.use({ seedAdmin: false });

  test("journey: first user is admin, second is not, sign out and back in", async ({ page }) => {
    await journey(page);
  });
});

async function journey(page: Page) {
  // Two argon2id registrations and two sign-ins: 25 s on a busy machine, over 60 s on a slow one.
  test.setTimeout(120_000);
  const first = makeUser({ prefix: "admin" });
  const second = makeUser({ prefix: "resident", pgyLevel: "Fellow" });

  await test.step("a signed-out visitor is sent to Sign In", async () => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { level: 1, name: "PRITE Study" })).toBeVisible();
    await expect(
      page.getByText("A collaborative flashcard system for PRITE exam preparation"),
    ).toBeVisible();
  });

  await test.step("register the first user: dashboard with the Admin tab", async () => {
    await page.getByRole("link", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await fillRegisterForm(page, first);
    await page.getByRole("button", { name: "Register", exact: true }).click();
    await skipScoresOnboarding(page);
    await expectDashboard(page, first);
    await expect(page.getByRole("banner")).toContainText(first.username);

    const adminTab = await navLink(page, "Admin");
    await expect(adminTab).toBeVisible();
    await adminTab.click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
  });

  await test.step("log out", async () => {
    await logOutViaHeader(page);
    await page.goto("/study");
    await expect(page).toHaveURL(/\/login$/);
  });

  await test.step("register a second user: no Admin tab, /admin sends home", async () => {
    await registerViaUi(page, second);
    await expect(mainNav(page).getByRole("link", { name: "Home" })).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name: "Admin" })).toHaveCount(0);
    await page.goto("/admin");
    await expectDashboard(page, second);
    await expect(page.getByText("Admin Dashboard")).toHaveCount(0);
  });

  await test.step("log out from Settings > Account", async () => {
    await (await navLink(page, "Settings")).click();
    await page.getByRole("tab", { name: "Account" }).click();
    await expect(page).toHaveURL(/\/settings\?tab=account$/);
    await page.getByRole("main").getByRole("button", { name: "Log Out" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  await test.step("a wrong password is refused with the server's message", async () => {
    await signInViaUi(page, { username: second.username, password: "not-the-password" });
    await expect(page.getByRole("alert")).toContainText("Invalid username or password");
    await expect(page).toHaveURL(/\/login$/);
  });

  await test.step("the right password opens the dashboard", async () => {
    await page.getByLabel("Password", { exact: true }).fill(second.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expectDashboard(page, second);
    await expect(mainNav(page).getByRole("link", { name: "Admin" })).toHaveCount(0);
  });

  await test.step("signed in, the sign-in pages send you home", async () => {
    await page.goto("/login");
    await expectDashboard(page, second);
    await page.goto("/register");
    await expectDashboard(page, second);
  });
}

test("Sign In needs both fields before asking the server", async ({ page }) => {
  const loginCalls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/trpc/auth.login")) loginCalls.push(request.url());
  });
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("Please enter all fields");

  await page.getByLabel("Username").fill("someone");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("Please enter all fields");
  expect(loginCalls).toEqual([]);
});

test("Register checks required fields, matching and length before asking the server", async ({
  page,
}) => {
  const registerCalls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/trpc/auth.register")) registerCalls.push(request.url());
  });
  const user = makeUser();
  const submit = page.getByRole("button", { name: "Register", exact: true });
  await page.goto("/register");

  await submit.click();
  await expect(page.getByRole("alert")).toHaveText("Please enter all required fields");

  await fillRegisterForm(page, { ...user, confirmPassword: `${user.password}-typo` });
  await submit.click();
  await expect(page.getByRole("alert")).toHaveText("Passwords do not match");

  await fillRegisterForm(page, { password: "short" });
  await submit.click();
  await expect(page.getByRole("alert")).toHaveText("Password must be at least 8 characters");
  expect(registerCalls).toEqual([]);
});

test("a taken username gets the server's message", async ({ page }) => {
  const taken = makeUser();
  await registerViaUi(page, taken);
  await logOutViaHeader(page);

  await page.goto("/register");
  await fillRegisterForm(page, { ...makeUser(), username: taken.username });
  await page.getByRole("button", { name: "Register", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("Username is already taken");
  await expect(page).toHaveURL(/\/register$/);
});

test("error banners close on the close button and by themselves after 5 seconds", async ({
  page,
}) => {
  await page.clock.install();
  await page.goto("/login");
  const submit = page.getByRole("button", { name: "Sign In", exact: true });

  await submit.click();
  await expect(page.getByRole("alert")).toBeVisible();
  await page.getByRole("button", { name: "Dismiss" }).click();
  await expect(page.getByRole("alert")).toHaveCount(0);

  // Stop the page's clock, so only runFor moves it: with time flowing, a slow machine could spend
  // the last 100 ms between the banner appearing and runFor.
  await page.clock.pauseAt(new Date(Date.now() + 60_000));
  await submit.click();
  await expect(page.getByRole("alert")).toBeVisible();
  await page.mouse.move(0, 0);
  await page.clock.runFor(4_900);
  await expect(page.getByRole("alert")).toBeVisible();
  await page.clock.runFor(200);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("Register shows a password's strength as it is typed, and the server refuses a common one", async ({
  page,
}) => {
  await page.goto("/register");
  const password = page.locator("#register-password");
  await password.fill("password123");
  await expect(
    page.getByText("This password is on a list of common passwords: choose another."),
  ).toBeVisible();
  await password.fill("Plum-Orbit-Kettle-42-umbrella");
  await expect(page.getByText(/^Strength: (Strong|Very strong)$/)).toBeVisible();

  await fillRegisterForm(page, {
    ...makeUser(),
    password: "qwerty123",
    confirmPassword: "qwerty123",
  });
  await page.getByRole("button", { name: "Register", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "This password is on a list of common passwords that attackers try first. Please choose another.",
  );
  await expect(page).toHaveURL(/\/register$/);
});
