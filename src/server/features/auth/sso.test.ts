import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passwordSignInOffMessage, ssoMessage } from "../../../core/sso";
import { buildApp } from "../../app";
import { SESSION_COOKIE } from "../../auth/cookies";
import { oidcIdentities, users } from "../../db/schema";
import type { OidcSettings } from "../../env";
import { createTestDb, type TestDb } from "../../test/db";
import { startTestProvider, type TestProvider } from "../../test/oidc-provider";
import { freePort } from "../../test/server-process";
import { createContextInner } from "../../trpc/context";
import { createCaller } from "../../trpc/router";
import { registerUser } from "./auth.service";

/**
 * Sign-in with the institution's account (issue 33) against a real OpenID provider: the app listens on
 * 127.0.0.1, and a cookie-keeping client follows every redirect by hand, through the provider's
 * development login and consent pages, as a browser would.
 */

const NAME = "Example University";
const PASSWORD = "correct horse battery";

/** Cookies per host:port, and requests that never follow a redirect on their own. */
class Browser {
  private jars = new Map<string, Map<string, string>>();

  cookie(url: string, name: string): string | undefined {
    return this.jars.get(new URL(url).host)?.get(name);
  }

  setCookie(url: string, name: string, value: string): void {
    const host = new URL(url).host;
    if (!this.jars.has(host)) this.jars.set(host, new Map());
    this.jars.get(host)!.set(name, value);
  }

  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; json?: unknown } = {},
  ) {
    const jar = this.jars.get(new URL(url).host);
    const headers: Record<string, string> = {};
    // A fresh connection each time: the tests restart the app on the same port.
    headers.connection = "close";
    if (jar?.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    let body: string | undefined;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      headers.origin = new URL(url).origin;
      body = JSON.stringify(init.json);
    }
    const res = await fetch(url, {
      method: init.method ?? "GET",
      headers,
      body,
      redirect: "manual",
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => {
        const [key = "", v = ""] = a.trim().split("=");
        if (key.toLowerCase() === "max-age") return Number(v) <= 0;
        if (key.toLowerCase() === "expires") return new Date(v).getTime() <= Date.now();
        return false;
      });
      if (expired || value === "") this.jars.get(new URL(url).host)?.delete(name);
      else this.setCookie(url, name, value);
    }
    return res;
  }
}

function locationOf(res: Response, base: string): string {
  const location = res.headers.get("location");
  if (!location) throw new Error(`expected a redirect, got ${res.status}: ${res.statusText}`);
  return new URL(location, base).href;
}

describe(`sign-in with the institution's account (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  let db: TestDb;
  let provider: TestProvider;
  let base: string;
  let settings: OidcSettings;
  const apps: FastifyInstance[] = [];

  /** The app on `base`, with these sign-in options. */
  async function startApp(opts: { allowedDomains?: string[]; passwordSignIn?: boolean } = {}) {
    for (const running of apps.splice(0)) await running.close();
    const app = await buildApp({
      handle: db,
      config: {
        throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 },
        aiModel: null,
        signIn: { passwordSignIn: opts.passwordSignIn ?? true, ssoName: NAME },
      },
      webDir: null,
      oidc: { ...settings, allowedDomains: opts.allowedDomains ?? [] },
    });
    await app.listen({ port: Number(new URL(base).port), host: "127.0.0.1" });
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    db = await createTestDb();
    base = `http://127.0.0.1:${await freePort()}`;
    provider = await startTestProvider(`${base}/api/auth/oidc/callback`);
    settings = {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      name: NAME,
      allowedDomains: [],
      redirectUri: `${base}/api/auth/oidc/callback`,
    };
    await startApp();
  });

  afterAll(async () => {
    for (const running of apps) await running.close();
    await provider?.close();
    await db?.close();
  });

  /**
   * "Sign in with …": the app's start, the provider's login (as `login`) and consent, up to the URL the
   * provider sends the browser back to (not yet followed).
   */
  async function throughProvider(browser: Browser, login: string): Promise<string> {
    const start = await browser.request(`${base}/api/auth/oidc/start`);
    expect(start.status).toBe(302);
    let url = locationOf(start, base);
    expect(url.startsWith(provider.issuer)).toBe(true);
    for (let step = 0; step < 20; step++) {
      if (url.startsWith(`${base}/`)) return url;
      const res = await browser.request(url);
      if (res.status >= 300 && res.status < 400) {
        url = locationOf(res, url);
        continue;
      }
      const html = await res.text();
      expect(res.status, html).toBe(200);
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
      if (!action || !prompt) throw new Error(`no form on the provider's page: ${html}`);
      const form: Record<string, string> =
        prompt === "login" ? { prompt, login, password: "any" } : { prompt };
      const posted = await browser.request(new URL(action, url).href, { method: "POST", form });
      url = locationOf(posted, url);
    }
    throw new Error("the provider never sent the browser back");
  }

  /** The whole dance; answers where the app sent the browser after its callback. */
  async function signIn(browser: Browser, login: string): Promise<string> {
    const callback = await throughProvider(browser, login);
    expect(callback.startsWith(`${base}/api/auth/oidc/callback?`)).toBe(true);
    return locationOf(await browser.request(callback), base);
  }

  async function me(browser: Browser): Promise<{ username: string } | null> {
    const res = await browser.request(`${base}/trpc/auth.me`);
    if (res.status !== 200) return null;
    return ((await res.json()) as { result: { data: { username: string } } }).result.data;
  }

  async function addUser(username: string, email: string) {
    const { user } = await registerUser(
      db.db,
      { username, email, password: PASSWORD, pgyLevel: "3" } as never,
      { now: new Date(), timeZone: "UTC" },
    );
    return user;
  }

  const identities = (userId: string) =>
    db.db.select().from(oidcIdentities).where(eq(oidcIdentities.userId, userId));

  it("creates the account on a first sign-in, asks its username and PGY level once, and signs in", async () => {
    await addUser("newcomer", "someone-else@example.test");
    provider.accounts.set("sub-new", { email: "Newcomer@program.example", email_verified: true });
    const browser = new Browser();
    expect(await signIn(browser, "sub-new")).toBe(`${base}/sso/complete`);
    expect(browser.cookie(base, SESSION_COOKIE)).toBeUndefined();

    const pending = await browser.request(`${base}/api/auth/oidc/pending`);
    // The email's local part, made unique: "newcomer" is taken.
    expect(await pending.json()).toEqual({
      kind: "create",
      email: "Newcomer@program.example",
      providerName: NAME,
      username: "newcomer2",
    });
    const refused = await browser.request(`${base}/api/auth/oidc/complete`, {
      method: "POST",
      json: { username: "newcomer", pgyLevel: "4" },
    });
    expect(refused.status).toBe(409);
    const done = await browser.request(`${base}/api/auth/oidc/complete`, {
      method: "POST",
      json: { username: "newcomer2", pgyLevel: "4" },
    });
    expect(done.status).toBe(200);
    expect(
      ((await done.json()) as { user: { username: string; pgyLevel: string } }).user,
    ).toMatchObject({
      username: "newcomer2",
      pgyLevel: "4",
    });
    expect(browser.cookie(base, SESSION_COOKIE)).toBeDefined();
    expect(await me(browser)).toMatchObject({ username: "newcomer2" });
    const [created] = await db.db.select().from(users).where(eq(users.username, "newcomer2"));
    expect(await identities(created!.id)).toEqual([
      expect.objectContaining({ issuer: provider.issuer, subject: "sub-new" }),
    ]);

    // The completion screen is single use; the next sign-in goes straight in.
    const again = await browser.request(`${base}/api/auth/oidc/complete`, {
      method: "POST",
      json: { username: "newcomer3", pgyLevel: "4" },
    });
    expect(again.status).toBe(404);
    const other = new Browser();
    expect(await signIn(other, "sub-new")).toBe(`${base}/`);
    expect(await me(other)).toMatchObject({ username: "newcomer2" });
  });

  it("refuses a callback whose state is not the one it sent, and signs nobody in", async () => {
    provider.accounts.set("sub-state", { email: "state@program.example", email_verified: true });
    const browser = new Browser();
    const callback = new URL(await throughProvider(browser, "sub-state"));
    callback.searchParams.set("state", "forged-state");
    const res = await browser.request(callback.href);
    expect(locationOf(res, base)).toBe(`${base}/login?sso=failed`);
    expect(browser.cookie(base, SESSION_COOKIE)).toBeUndefined();
    expect(
      await db.db.select().from(users).where(eq(users.email, "state@program.example")),
    ).toEqual([]);
  });

  it("refuses a callback without the browser's flow cookie (another browser's code)", async () => {
    provider.accounts.set("sub-csrf", { email: "csrf@program.example", email_verified: true });
    const callback = await throughProvider(new Browser(), "sub-csrf");
    const victim = new Browser();
    expect(locationOf(await victim.request(callback), base)).toBe(`${base}/login?sso=expired`);
    expect(victim.cookie(base, SESSION_COOKIE)).toBeUndefined();
  });

  it("refuses a replayed code, even with the flow cookie it came with", async () => {
    const user = await addUser("replayer", "replayer@program.example");
    await db.db.insert(oidcIdentities).values({
      issuer: provider.issuer,
      subject: "sub-replay",
      userId: user.id,
    });
    const browser = new Browser();
    const callback = await throughProvider(browser, "sub-replay");
    const flowCookie = browser.cookie(base, "prite_oidc_flow")!;
    expect(locationOf(await browser.request(callback), base)).toBe(`${base}/`);

    const attacker = new Browser();
    attacker.setCookie(base, "prite_oidc_flow", flowCookie);
    expect(locationOf(await attacker.request(callback), base)).toBe(`${base}/login?sso=failed`);
    expect(attacker.cookie(base, SESSION_COOKIE)).toBeUndefined();
  });

  it("does not link an existing account when the provider has not verified the email", async () => {
    const user = await addUser("unverified", "unverified@program.example");
    provider.accounts.set("sub-unverified", {
      email: "unverified@program.example",
      email_verified: false,
    });
    const browser = new Browser();
    expect(await signIn(browser, "sub-unverified")).toBe(`${base}/login?sso=unverified`);
    expect(browser.cookie(base, SESSION_COOKIE)).toBeUndefined();
    expect(browser.cookie(base, "prite_oidc_pending")).toBeUndefined();
    expect(await identities(user.id)).toEqual([]);
    expect(ssoMessage("unverified", NAME)).toContain("cannot be linked");
  });

  it("links an existing account with a verified email once its password confirms", async () => {
    const user = await addUser("linker", "Linker@program.example");
    provider.accounts.set("sub-link", { email: "linker@program.example", email_verified: true });
    const browser = new Browser();
    expect(await signIn(browser, "sub-link")).toBe(`${base}/sso/link`);
    expect(await (await browser.request(`${base}/api/auth/oidc/pending`)).json()).toMatchObject({
      kind: "link",
      email: "linker@program.example",
    });

    const wrong = await browser.request(`${base}/api/auth/oidc/link`, {
      method: "POST",
      json: { password: "not the password" },
    });
    expect(wrong.status).toBe(401);
    expect(await identities(user.id)).toEqual([]);
    expect(browser.cookie(base, SESSION_COOKIE)).toBeUndefined();

    const right = await browser.request(`${base}/api/auth/oidc/link`, {
      method: "POST",
      json: { password: PASSWORD },
    });
    expect(right.status).toBe(200);
    expect(await me(browser)).toMatchObject({ username: "linker" });
    expect(await identities(user.id)).toHaveLength(1);
    expect(await signIn(new Browser(), "sub-link")).toBe(`${base}/`);
  });

  it("refuses emails outside OIDC_ALLOWED_DOMAINS", async () => {
    await startApp({ allowedDomains: ["program.example"] });
    try {
      provider.accounts.set("sub-outsider", {
        email: "out@elsewhere.example",
        email_verified: true,
      });
      const browser = new Browser();
      expect(await signIn(browser, "sub-outsider")).toBe(`${base}/login?sso=domain`);
      expect(browser.cookie(base, SESSION_COOKIE)).toBeUndefined();
      expect(
        await db.db.select().from(users).where(eq(users.email, "out@elsewhere.example")),
      ).toEqual([]);
      provider.accounts.set("sub-insider", { email: "in@program.example", email_verified: true });
      expect(await signIn(new Browser(), "sub-insider")).toBe(`${base}/sso/complete`);
    } finally {
      await startApp();
    }
  });

  it("PASSWORD_SIGN_IN=off refuses password sign-in and registration on REST and tRPC", async () => {
    await addUser("passworder", "passworder@program.example");
    await startApp({ passwordSignIn: false });
    try {
      const message = passwordSignInOffMessage(NAME);
      const post = (path: string, body: unknown) =>
        fetch(`${base}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      const login = { username: "passworder", password: PASSWORD };
      const account = {
        username: "fresh1",
        email: "fresh1@x.example",
        password: PASSWORD,
        pgyLevel: "1",
      };
      for (const res of [
        await post("/api/auth/login", login),
        await post("/api/auth/register", account),
      ]) {
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({ message });
      }
      for (const res of [
        await post("/trpc/auth.login", login),
        await post("/trpc/auth.register", account),
      ]) {
        expect(res.status).toBe(403);
        expect(((await res.json()) as { error: { message: string } }).error.message).toBe(message);
      }
      const options = await fetch(`${base}/trpc/auth.signInOptions`);
      expect(((await options.json()) as { result: { data: unknown } }).result.data).toEqual({
        passwordSignIn: false,
        ssoName: NAME,
      });
      expect(await db.db.select().from(users).where(eq(users.username, "fresh1"))).toEqual([]);
      // The institution's account still signs in.
      expect(await signIn(new Browser(), "sub-new")).toBe(`${base}/`);
    } finally {
      await startApp();
    }
  });

  it("PASSWORD_SIGN_IN=off leaves the CLI's local mode its passwords (how an operator adds accounts)", async () => {
    const local = createCaller(
      createContextInner({
        db: db.db,
        config: { signIn: { passwordSignIn: false, ssoName: NAME } },
      }),
    );
    const added = await local.auth.register({
      username: "by-cli",
      email: "by-cli@program.example",
      password: PASSWORD,
      pgyLevel: "Attending",
    });
    expect(added.user.username).toBe("by-cli");
    const remote = createCaller(
      createContextInner({
        db: db.db,
        ip: "203.0.113.9",
        config: { signIn: { passwordSignIn: false, ssoName: NAME } },
      }),
    );
    await expect(remote.auth.login({ username: "by-cli", password: PASSWORD })).rejects.toThrow(
      passwordSignInOffMessage(NAME),
    );
  });

  it("answers 404 with a message when sign-in with an institution's account is not set up", async () => {
    const app = await buildApp({
      handle: db,
      config: { throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 }, aiModel: null },
      webDir: null,
    });
    try {
      const res = await app.inject({ method: "GET", url: "/api/auth/oidc/start" });
      expect(res.statusCode).toBe(404);
      const options = await app.inject({ method: "GET", url: "/trpc/auth.signInOptions" });
      expect(options.json().result.data).toEqual({ passwordSignIn: true, ssoName: null });
    } finally {
      await app.close();
    }
  });
});
