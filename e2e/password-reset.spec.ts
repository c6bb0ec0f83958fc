import path from "node:path";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { resetTokenIn, startTestSmtp, type TestSmtp } from "../src/server/test/smtp";
import {
  expect,
  expectDashboard,
  makeUser,
  registerViaApi,
  seriousAxeViolations,
  signInViaUi,
  test,
  type TestUser,
} from "./fixtures";
import { rememberSecret } from "./secrets";
import { GOLDEN_DATA_DIR_ENV, SERVER_LOG_DIR, startServer, type RunningServer } from "./server";

// Issue 33 item 1 at phone width: "Forgot password?" through the mailed link, the admin's reset link,
// and Settings' sessions with "Sign out everywhere else". A server of its own, sending mail to a real
// SMTP server started here.

const PHONE = { width: 375, height: 812 };
let smtp: TestSmtp;
let server: RunningServer;
let admin: TestUser;

test.beforeAll(async ({ browser }, testInfo) => {
  smtp = await startTestSmtp();
  server = await startServer({
    logFile: path.join(SERVER_LOG_DIR, `password-reset-w${testInfo.workerIndex}-${Date.now()}.log`),
    template: process.env[GOLDEN_DATA_DIR_ENV],
    env: { SMTP_URL: smtp.url, MAIL_FROM: "PRITE Study <prite@example.org>", PUBLIC_URL: "{url}" },
  });
  admin = makeUser({ prefix: "chief" });
  const context = await newPhone(browser);
  await registerViaApi(context.request, admin); // the first account: the admin
  await context.close();
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const contexts: BrowserContext[] = [];
/** A phone-sized browser context on this spec's server; closed after each test. */
async function newPhone(browser: Browser, userAgent?: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: PHONE,
    hasTouch: true,
    ...(userAgent ? { userAgent } : {}),
  });
  contexts.push(context);
  return context;
}
test.afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close().catch(() => {});
});

async function expectNoSeriousViolations(page: Page) {
  expect(await seriousAxeViolations(page)).toEqual([]);
}

async function setNewPassword(page: Page, password: string) {
  await page.getByLabel("New Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm New Password").fill(password);
  await expectNoSeriousViolations(page);
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("Your password has been reset")).toBeVisible();
}

test("Forgot password? → the emailed link → a new password → Sign In", async ({ browser }) => {
  const user = makeUser({ prefix: "forgot" });
  const page = await (await newPhone(browser)).newPage();
  await registerViaApi(page.request, user);
  await page.context().clearCookies();

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("Email").fill(user.email);
  await expectNoSeriousViolations(page);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("If an account uses this email")).toBeVisible();

  const mail = await smtp.next();
  expect(mail.to).toEqual([user.email]);
  const token = resetTokenIn(mail);
  rememberSecret("token", token);
  const link = `${server.url}/reset-password?token=${token}`;
  expect(mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=")).toContain(link);

  await page.goto(link);
  const newPassword = `renewed-${Math.random().toString(36).slice(2, 10)}-pass`;
  rememberSecret("password", newPassword);
  await setNewPassword(page, newPassword);

  // The link works once.
  await page.goto(link);
  await page.getByLabel("New Password", { exact: true }).fill("another-password-42");
  await page.getByLabel("Confirm New Password").fill("another-password-42");
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("This reset link is invalid or has expired.")).toBeVisible();

  await page.goto("/login");
  await signInViaUi(page, { ...user, password: newPassword });
  await expectDashboard(page, user);
});

test("an admin's reset link, copied from the Admin page", async ({ browser }) => {
  const user = makeUser({ prefix: "locked" });
  const adminPage = await (await newPhone(browser)).newPage();
  await registerViaApi(adminPage.request, user);
  await adminPage.context().clearCookies();
  await adminPage.goto("/login");
  await signInViaUi(adminPage, admin);
  await expectDashboard(adminPage, admin);
  await adminPage.goto("/admin");
  await adminPage.getByRole("button", { name: `Reset link for ${user.username}` }).click();
  const field = adminPage.getByRole("textbox", { name: "Reset link" });
  await expect(field).toHaveValue(/\/reset-password\?token=[\w-]{43}$/);
  await expectNoSeriousViolations(adminPage);
  const link = await field.inputValue();
  rememberSecret("token", new URL(link).searchParams.get("token"));

  const page = await (await newPhone(browser)).newPage();
  await page.goto(link);
  const newPassword = `handed-${Math.random().toString(36).slice(2, 10)}-pass`;
  rememberSecret("password", newPassword);
  await setNewPassword(page, newPassword);
  await page.getByRole("link", { name: "Sign In" }).first().click();
  await signInViaUi(page, { ...user, password: newPassword });
  await expectDashboard(page, user);
});

test("Settings lists the sessions and signs out everywhere else", async ({ browser }) => {
  const user = makeUser({ prefix: "devices" });
  const laptop = await (
    await newPhone(browser, "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/125.0")
  ).newPage();
  await registerViaApi(laptop.request, user);
  await laptop.goto("/");
  await expectDashboard(laptop, user);

  const phone = await (await newPhone(browser)).newPage();
  await phone.goto("/login");
  await signInViaUi(phone, user);
  await expectDashboard(phone, user);
  await phone.goto("/settings?tab=account");
  const list = phone.getByRole("list", { name: "Active sessions" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list).toContainText("Firefox on Windows");
  await expect(list).toContainText("This device");
  await expectNoSeriousViolations(phone);
  await phone.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(phone.getByText("Signed out everywhere else")).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(1);

  // The laptop's session has ended: its next page asks it to sign in.
  await laptop.reload();
  await expect(laptop).toHaveURL(/\/login/);
});
