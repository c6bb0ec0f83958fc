import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  test as base,
  expect,
  type APIRequestContext,
  type APIResponse,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
  type TestInfo,
} from "@playwright/test";
import { rememberSecret, rememberSetCookie, SESSION_COOKIE } from "./secrets";
import {
  GOLDEN_DATA_DIR_ENV,
  logLabel,
  SERVER_LOG_DIR,
  startServer,
  type RunningServer,
} from "./server";

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

/**
 * A new user's details. Each gets a password of its own, noted for the log scan: a password that shows
 * up in a server log is then traced to the very request that carried it.
 */
export function makeUser(overrides: Partial<TestUser> & { prefix?: string } = {}): TestUser {
  const { prefix, ...rest } = overrides;
  const username = rest.username ?? uniqueUsername(prefix);
  const user: TestUser = {
    username,
    email: `${username}@example.test`,
    password: `horse-${Math.random().toString(36).slice(2, 10)}-battery`,
    pgyLevel: "2",
    ...rest,
  };
  rememberSecret("password", user.password);
  return user;
}

/** A password a test types that no user was made with (a wrong one, a new one): the log scan looks for it too. */
export function typedPassword(password: string): string {
  rememberSecret("password", password);
  return password;
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
    await page.getByLabel("Password", { exact: true }).fill(typedPassword(user.password));
  }
  const confirmation = user.confirmPassword ?? user.password;
  if (confirmation !== undefined) {
    await page.getByLabel("Confirm Password").fill(typedPassword(confirmation));
  }
}

export async function signInViaUi(
  page: Page,
  credentials: Pick<TestUser, "username" | "password">,
): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Username").fill(credentials.username);
  await page.getByLabel("Password", { exact: true }).fill(typedPassword(credentials.password));
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

/**
 * A page's link in the main navigation, wherever it is: its own entry in the bottom bar, or on a phone
 * (where the bar holds Home, Study, Exam and Browse) in the sheet that More opens, opened here.
 */
export async function navLink(page: Page, name: string): Promise<Locator> {
  const inBar = mainNav(page).getByRole("link", { name, exact: true });
  if (await inBar.isVisible()) return inBar;
  await mainNav(page).getByRole("button", { name: "More", exact: true }).click();
  return page.getByRole("dialog", { name: "More" }).getByRole("link", { name, exact: true });
}

// ---------------------------------------------------------------------------------------------
// The server of the spec file being run, and calls to it.

interface SpecServer extends RunningServer {
  /** The first account of this server's database (so an admin), or null when `seedAdmin` is off. */
  admin: TestUser | null;
}

/** The server the current test talks to (one test at a time runs in a worker). */
let current: SpecServer | null = null;

function currentServer(): SpecServer {
  if (!current) throw new Error("No server yet: use the `test` of e2e/fixtures.ts");
  return current;
}

/** The Origin the server's CSRF guard wants on cookie-carrying writes: its own. */
export function appOrigin(): string {
  return new URL(currentServer().url).origin;
}

async function trpcResult<T>(procedure: string, response: APIResponse): Promise<T> {
  for (const { name, value } of response.headersArray()) {
    if (name.toLowerCase() === "set-cookie") rememberSetCookie(value);
  }
  const body = (await response.json()) as { result?: { data?: unknown }; error?: unknown };
  if (!response.ok()) {
    throw new Error(`${procedure} failed (${response.status()}): ${JSON.stringify(body.error)}`);
  }
  return body.result?.data as T;
}

/**
 * A tRPC mutation with `request`'s cookies (page.request: the page's own session). The server
 * refuses cookie-carrying writes without a same-origin Origin, so it is sent.
 */
export async function trpcMutation<T = unknown>(
  request: APIRequestContext,
  procedure: string,
  input: unknown = {},
): Promise<T> {
  const response = await request.post(`/trpc/${procedure}`, {
    data: input,
    headers: { origin: appOrigin() },
  });
  return trpcResult<T>(procedure, response);
}

/** A tRPC query; the time zone is the one the browser contexts use (streaks and "today"). */
export async function trpcQuery<T = unknown>(
  request: APIRequestContext,
  procedure: string,
  input?: unknown,
): Promise<T> {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await request.get(`/trpc/${procedure}${query}`, {
    headers: { "x-time-zone": "America/New_York" },
  });
  return trpcResult<T>(procedure, response);
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

/**
 * The first account of a fresh server, registered over REST as a script would: it becomes the admin.
 * Its token is then sent once in each header form, so the log scan covers how they are logged.
 */
async function seedFirstAdmin(url: string): Promise<TestUser> {
  const admin = makeUser({ prefix: "admin" });
  const response = await fetch(`${url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...admin, confirmPassword: admin.password }),
  });
  for (const cookie of response.headers.getSetCookie()) rememberSetCookie(cookie);
  const body = (await response.json()) as { token?: string; user?: { isAdmin?: boolean } };
  rememberSecret("token", body.token);
  if (response.status !== 201 || !body.token || body.user?.isAdmin !== true) {
    throw new Error(`The first registration did not make an admin: ${JSON.stringify(body)}`);
  }
  const tokenHeaders: Record<string, string>[] = [
    { "x-auth-token": body.token },
    { authorization: `Bearer ${body.token}` },
  ];
  for (const headers of tokenHeaders) {
    const me = await fetch(`${url}/api/auth/me`, { headers });
    if (!me.ok) throw new Error(`GET /api/auth/me with the admin's token: ${me.status}`);
  }
  return admin;
}

async function startSpecServer(testInfo: TestInfo, seedAdmin: boolean): Promise<SpecServer> {
  const spec = path.basename(testInfo.file).replace(/\.spec\.ts$/, "");
  const label = logLabel(`${spec}${seedAdmin ? "" : "-no-accounts"}`);
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const running = await startServer({
    logFile: path.join(SERVER_LOG_DIR, `${label}-w${testInfo.workerIndex}-${stamp}.log`),
    template: process.env[GOLDEN_DATA_DIR_ENV],
  });
  try {
    return { ...running, admin: seedAdmin ? await seedFirstAdmin(running.url) : null };
  } catch (error) {
    await running.stop();
    throw error;
  }
}

/**
 * One server at a time per worker, for the spec file (and `seedAdmin` choice) being run: when the
 * worker moves on to another file the old server is stopped and a new one starts on a fresh copy of
 * the empty database. So no spec sees another's data, whatever order the files run in.
 */
class ServerPool {
  private running: { key: string; server: SpecServer } | null = null;

  async serverFor(key: string, start: () => Promise<SpecServer>): Promise<SpecServer> {
    if (this.running?.key === key) return this.running.server;
    await this.close();
    const server = await start();
    this.running = { key, server };
    return server;
  }

  async close(): Promise<void> {
    const running = this.running;
    this.running = null;
    await running?.server.stop();
  }
}

/** Notes every session token a browser context is handed, and the one it holds at the end. */
function watchSessions(context: BrowserContext): { finish: () => Promise<void> } {
  const pending: Promise<void>[] = [];
  context.on("response", (response) => {
    if (!/\/(trpc|api)\//.test(response.url())) return;
    pending.push(
      response
        .headerValue("set-cookie")
        .then(rememberSetCookie)
        .catch(() => {}),
    );
  });
  return {
    finish: async () => {
      await Promise.allSettled(pending);
      try {
        for (const cookie of await context.cookies()) {
          if (cookie.name === SESSION_COOKIE) rememberSecret("session", cookie.value);
        }
      } catch {
        // the test closed the context already; its tokens were noted as they arrived
      }
    },
  };
}

interface TestFixtures {
  /** Register the first account (an admin) when the server starts. Off only for the first-user journey. */
  seedAdmin: boolean;
  server: SpecServer;
  /** A fresh regular user, signed in in this test's browser context. */
  user: TestUser;
  /** The server's admin (its first account), signed in in this test's browser context. */
  admin: TestUser;
  /** Another browser context (a second device or user); closed after the test. */
  newContext: (options?: BrowserContextOptions) => Promise<BrowserContext>;
  /** A request context of its own (another user without a browser); disposed after the test. */
  newApiContext: () => Promise<APIRequestContext>;
}

interface WorkerFixtures {
  serverPool: ServerPool;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  serverPool: [
    // Playwright reads a fixture's dependencies from this pattern: none, so it is empty.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const pool = new ServerPool();
      await use(pool);
      await pool.close();
    },
    { scope: "worker", timeout: 30_000 },
  ],
  seedAdmin: [true, { option: true }],
  server: [
    async ({ serverPool, seedAdmin }, use, testInfo) => {
      const server = await serverPool.serverFor(`${testInfo.file}#${seedAdmin}`, () =>
        startSpecServer(testInfo, seedAdmin),
      );
      current = server;
      await use(server);
      current = null;
    },
    // Copying the database and starting the server is not the test's time.
    { timeout: 90_000 },
  ],
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
  context: async ({ context }, use) => {
    const sessions = watchSessions(context);
    await use(context);
    await sessions.finish();
  },
  user: async ({ page }, use) => {
    const user = makeUser();
    await registerViaApi(page.request, user);
    await use(user);
  },
  admin: async ({ page, server }, use) => {
    if (!server.admin)
      throw new Error("This server was started without accounts (seedAdmin: false)");
    await signInViaApi(page.request, server.admin);
    await use(server.admin);
  },
  newContext: async ({ browser }, use) => {
    const made: { context: BrowserContext; sessions: { finish: () => Promise<void> } }[] = [];
    await use(async (options) => {
      const context = await browser.newContext(options);
      made.push({ context, sessions: watchSessions(context) });
      return context;
    });
    for (const { context, sessions } of made) {
      await sessions.finish();
      await context.close().catch(() => {});
    }
  },
  newApiContext: async ({ playwright }, use) => {
    const made: APIRequestContext[] = [];
    await use(async () => {
      const request = await playwright.request.newContext();
      made.push(request);
      return request;
    });
    for (const request of made) {
      try {
        for (const cookie of (await request.storageState()).cookies) {
          if (cookie.name === SESSION_COOKIE) rememberSecret("session", cookie.value);
        }
      } catch {
        // disposed by the test already
      }
      await request.dispose().catch(() => {});
    }
  },
});

/** Until the page's service worker is active (it then controls reloads and offline visits). */
export async function serviceWorkerReady(page: Page): Promise<string | undefined> {
  return page.evaluate(async () => {
    const worker = (await navigator.serviceWorker.ready).active;
    if (worker && worker.state !== "activated") {
      await new Promise<void>((resolve) => {
        worker.addEventListener("statechange", () => {
          if (worker.state === "activated") resolve();
        });
      });
    }
    return worker?.state;
  });
}

/**
 * axe-core's serious and critical violations on the page as it is now, as "rule: target" lines
 * (axe-core itself, injected: its Playwright wrapper needs a newer Node than the project supports).
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the app's CSP (rightly) refuses an injected <script>.
  const source = fs.readFileSync(
    createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
    "utf8",
  );
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
    }
    const results = await axe.run(document);
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
  });
}
