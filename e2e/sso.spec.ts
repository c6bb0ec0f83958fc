import path from "node:path";
import type { Page } from "@playwright/test";
import { startTestProvider, type TestProvider } from "../src/server/test/oidc-provider";
import {
  chooseSelectOption,
  expect,
  expectDashboard,
  makeUser,
  seriousAxeViolations,
  skipScoresOnboarding,
  test as base,
  typedPassword,
} from "./fixtures";
import { rememberSecret } from "./secrets";
import {
  freePort,
  GOLDEN_DATA_DIR_ENV,
  SERVER_LOG_DIR,
  startServer,
  type RunningServer,
} from "./server";

/**
 * Issue 33 item 2 at 375 px: "Sign in with …" through a real OpenID provider's login and consent pages
 * (oidc-provider's development interactions), the first sign-in's completion screen, linking an
 * existing account with its password, and PASSWORD_SIGN_IN=off. The built server gets the OIDC_*
 * settings and its own PUBLIC_URL, so this spec starts it itself.
 */

const NAME = "Example University";
let provider: TestProvider;

/** The built server with sign-in through `provider`, on a port chosen first (PUBLIC_URL names it). */
async function startApp(extra: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  provider ??= await startTestProvider(`${publicUrl}/api/auth/oidc/callback`);
  rememberSecret("token", provider.clientSecret);
  return startServer({
    logFile: path.join(SERVER_LOG_DIR, `sso-${Date.now().toString(36)}.log`),
    template: process.env[GOLDEN_DATA_DIR_ENV],
    env: {
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_NAME: NAME,
      ...extra,
    },
  });
}

/** The running app, replaced when a test restarts it with other settings. */
interface SsoApp {
  server: RunningServer;
}

const test = base.extend<{ sso: SsoApp }, { ssoWorker: SsoApp }>({
  ssoWorker: [
    // eslint-disable-next-line no-empty-pattern -- no dependencies
    async ({}, use) => {
      const holder = { server: await startApp() };
      await use(holder);
      await holder.server.stop();
      await provider?.close();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  sso: async ({ ssoWorker }, use) => {
    await use(ssoWorker);
  },
  baseURL: async ({ ssoWorker }, use) => {
    await use(ssoWorker.server.url);
  },
});

test.use({ viewport: { width: 375, height: 740 } });
test.describe.configure({ mode: "serial" });

/** Sign In's button, then the provider's own pages: its login (as `login`) and its consent. */
async function throughProvider(page: Page, login: string): Promise<void> {
  // The log scan (decision 066) then proves the callback's authorization code is never logged.
  page.on("request", (request) => {
    const code = new URL(request.url()).searchParams.get("code");
    if (request.url().includes("/api/auth/oidc/callback")) rememberSecret("token", code);
  });
  await page.getByRole("link", { name: `Sign in with ${NAME}` }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.locator("input[name=login]").fill(login);
  await page.locator("input[name=password]").fill("any");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

test("a first sign-in asks the username and PGY level once, then reaches the Dashboard", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const login = `resident-${Date.now().toString(36)}`;
  provider.accounts.set(login, { email: `${login}@program.example`, email_verified: true });
  await page.goto("/login");
  await expect(page.getByRole("link", { name: `Sign in with ${NAME}` })).toBeVisible();
  await expect(page.getByLabel("Username")).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  await throughProvider(page, login);
  await expect(page).toHaveURL(/\/sso\/complete$/);
  await expect(page.getByRole("heading", { name: "Finish creating your account" })).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveValue(login);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert")).toContainText("Please enter all required fields");
  await chooseSelectOption(page.getByLabel("PGY Level"), "PGY-3");
  await page.getByRole("button", { name: "Continue" }).click();
  await skipScoresOnboarding(page);
  await expectDashboard(page, { username: login });

  // Signed out, the same account goes straight back in.
  await page.context().clearCookies({ domain: "127.0.0.1", name: "prite_session" });
  await page.goto("/login");
  await page.getByRole("link", { name: `Sign in with ${NAME}` }).click();
  await expectDashboard(page, { username: login });
});

test("an existing account with the provider's verified email is linked with its password", async ({
  page,
  sso,
}) => {
  test.setTimeout(120_000);
  const user = makeUser({ prefix: "linked" });
  const registered = await fetch(`${sso.server.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...user, confirmPassword: user.password }),
  });
  expect(registered.status).toBe(201);
  rememberSecret("token", ((await registered.json()) as { token: string }).token);
  provider.accounts.set(user.username, { email: user.email, email_verified: true });

  await page.goto("/login");
  await throughProvider(page, user.username);
  await expect(page).toHaveURL(/\/sso\/link$/);
  await expect(
    page.getByText(`An account with the email ${user.email} already exists.`),
  ).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.getByLabel("Password").fill(typedPassword("not-the-password-1"));
  await page.getByRole("button", { name: "Link and sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("Incorrect password");
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Link and sign in" }).click();
  await expectDashboard(page, user);
});

test("an email the provider has not verified is not linked: Sign In says why", async ({
  page,
  sso,
}) => {
  const user = makeUser({ prefix: "unverified" });
  await fetch(`${sso.server.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...user, confirmPassword: user.password }),
  }).then(async (r) => rememberSecret("token", ((await r.json()) as { token: string }).token));
  provider.accounts.set(user.username, { email: user.email, email_verified: false });
  await page.goto("/login");
  await throughProvider(page, user.username);
  await expect(page).toHaveURL(/\/login\?sso=unverified$/);
  await expect(page.getByRole("alert")).toContainText("cannot be linked");
  expect(await seriousAxeViolations(page)).toEqual([]);
});

test("PASSWORD_SIGN_IN=off shows only the institution's sign-in on Sign In and Register", async ({
  page,
  sso,
}) => {
  test.setTimeout(90_000);
  await sso.server.stop();
  sso.server = await startApp({ PASSWORD_SIGN_IN: "off" });
  await page.goto(`${sso.server.url}/login`);
  await expect(page.getByRole("link", { name: `Sign in with ${NAME}` })).toBeVisible();
  await expect(page.getByLabel("Username")).toBeHidden();
  await expect(page.getByLabel("Password", { exact: true })).toBeHidden();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.goto(`${sso.server.url}/register`);
  await expect(page.getByRole("link", { name: `Sign in with ${NAME}` })).toBeVisible();
  await expect(page.getByLabel("Email")).toBeHidden();
});
