import fs from "node:fs";
import path from "node:path";
import {
  test as base,
  expect,
  type APIRequestContext,
  type Locator,
  type Page,
} from "@playwright/test";

export { expect };

export const PGY_LABELS = {
  "1": "PGY-1",
  "2": "PGY-2",
  "3": "PGY-3",
  "4": "PGY-4",
  "5": "PGY-5",
  "6+": "PGY-6+",
  Fellow: "Fellow",
  Attending: "Attending",
  Other: "Other",
} as const;
export type PgyLevel = keyof typeof PGY_LABELS;

export interface TestUser {
  username: string;
  email: string;
  password: string;
  pgyLevel: PgyLevel;
}

let sequence = 0;

/**
 * A username no other test (in this run or an earlier one) has used, so specs never depend on
 * each other's order. Usernames allow letters, digits, dots, dashes and underscores, up to 32.
 */
export function uniqueUsername(prefix = "user"): string {
  const stamp = Date.now().toString(36).slice(-6);
  const random = Math.random().toString(36).slice(2, 6);
  return `${prefix.slice(0, 10)}-${stamp}${random}${(sequence++).toString(36)}`;
}

export function makeUser(overrides: Partial<TestUser> & { prefix?: string } = {}): TestUser {
  const { prefix, ...rest } = overrides;
  const username = rest.username ?? uniqueUsername(prefix);
  return {
    username,
    email: `${username}@example.test`,
    password: "correct-horse-battery",
    pgyLevel: "2",
    ...rest,
  };
}

/** Fills the Register form, skips the PRITE scores onboarding and waits for the dashboard. */
export async function registerViaUi(page: Page, user: TestUser): Promise<void> {
  await page.goto("/register");
  await fillRegisterForm(page, user);
  await page.getByRole("button", { name: "Register", exact: true }).click();
  await skipScoresOnboarding(page);
  await expectDashboard(page, user);
}

/** A new account is offered the PRITE scores form once, right after registering: skip it. */
export async function skipScoresOnboarding(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/settings\?tab=prite-scores&onboarding=true$/);
  await expect(page.getByRole("heading", { name: "Welcome to PRITE Study!" })).toBeVisible();
  await page.getByRole("button", { name: "Skip for now" }).click();
}

/**
 * Fills whichever Register fields are given. Confirm Password gets the password unless
 * `confirmPassword` says otherwise (pass it alone to change only that field).
 */
export async function fillRegisterForm(
  page: Page,
  user: Partial<TestUser> & { confirmPassword?: string },
): Promise<void> {
  if (user.username !== undefined) await page.getByLabel("Username").fill(user.username);
  if (user.email !== undefined) await page.getByLabel("Email").fill(user.email);
  if (user.pgyLevel !== undefined) {
    await chooseSelectOption(page.getByLabel("PGY Level"), PGY_LABELS[user.pgyLevel]);
  }
  if (user.password !== undefined) {
    await page.getByLabel("Password", { exact: true }).fill(user.password);
  }
  const confirmation = user.confirmPassword ?? user.password;
  if (confirmation !== undefined) await page.getByLabel("Confirm Password").fill(confirmation);
}

export async function signInViaUi(
  page: Page,
  credentials: Pick<TestUser, "username" | "password">,
): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Username").fill(credentials.username);
  await page.getByLabel("Password", { exact: true }).fill(credentials.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/** The header's Log Out, available on every signed-in page. */
export async function logOutViaHeader(page: Page): Promise<void> {
  await page.getByRole("banner").getByRole("button", { name: "Log Out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

export async function expectDashboard(page: Page, user: Pick<TestUser, "username">) {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByText(`Welcome, ${user.username}`)).toBeVisible();
}

/**
 * Picks `name` in the select whose trigger is `trigger`, and waits until the trigger shows it. In a long
 * list the click that scrolls an option into view can land while the list's scroll arrow appears and
 * shifts the items, leaving the list open with nothing chosen: then the option is clicked again.
 */
export async function chooseSelectOption(trigger: Locator, name: string): Promise<void> {
  const page = trigger.page();
  const listbox = page.getByRole("listbox");
  await expect(async () => {
    if (!(await listbox.isVisible())) await trigger.click({ timeout: 2_000 });
    await listbox.getByRole("option", { name, exact: true }).click({ timeout: 2_000 });
    await expect(trigger).toContainText(name, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

export function mainNav(page: Page) {
  return page.getByRole("navigation", { name: "Main" });
}

async function trpcMutation(
  request: APIRequestContext,
  procedure: string,
  input: unknown,
): Promise<unknown> {
  const baseURL = base.info().project.use.baseURL;
  const response = await request.post(`/trpc/${procedure}`, {
    data: input,
    // The server refuses cookie-carrying writes without a same-origin Origin (CSRF guard).
    headers: baseURL ? { origin: new URL(baseURL).origin } : {},
  });
  const body = (await response.json()) as { result?: { data?: unknown }; error?: unknown };
  if (!response.ok()) {
    throw new Error(`${procedure} failed (${response.status()}): ${JSON.stringify(body.error)}`);
  }
  return body.result?.data;
}

/**
 * Registers through the API. With `page.request` the session cookie lands in the page's browser
 * context, so the page is signed in as this user: far faster than the form when the form is not
 * what the test is about.
 */
export async function registerViaApi(request: APIRequestContext, user: TestUser) {
  return trpcMutation(request, "auth.register", { ...user, confirmPassword: user.password });
}

export async function signInViaApi(
  request: APIRequestContext,
  credentials: Pick<TestUser, "username" | "password">,
) {
  return trpcMutation(request, "auth.login", credentials);
}

/** Where the first-user journey leaves the admin's credentials for later specs. */
function firstUserFile(): string {
  const runDir = process.env.PRITE_E2E_RUN_DIR;
  if (!runDir)
    throw new Error("PRITE_E2E_RUN_DIR is not set: run the specs through playwright.config.ts");
  return path.join(runDir, "first-user.json");
}

export function rememberFirstUser(user: TestUser): void {
  fs.writeFileSync(firstUserFile(), JSON.stringify(user), { mode: 0o600 });
}

export function firstUser(): TestUser {
  try {
    return JSON.parse(fs.readFileSync(firstUserFile(), "utf8")) as TestUser;
  } catch {
    throw new Error(
      "No admin yet: the 'first-user' project (e2e/auth.spec.ts) registers it; run with its dependency.",
    );
  }
}

interface Fixtures {
  /**
   * A fresh user signed in in this test's browser context. A regular user (not admin) in the 'app'
   * project, which runs after the first account exists.
   */
  user: TestUser;
  /** The run's admin (the first account registered), signed in in this test's browser context. */
  admin: TestUser;
}

export const test = base.extend<Fixtures>({
  user: async ({ page }, use) => {
    const user = makeUser();
    await registerViaApi(page.request, user);
    await use(user);
  },
  admin: async ({ page }, use) => {
    const admin = firstUser();
    await signInViaApi(page.request, admin);
    await use(admin);
  },
});
