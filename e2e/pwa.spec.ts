/**
 * Issue 18 item 1 and the offline messages of item 4: the app installs, its shell opens offline from
 * the service worker, pages that need the server say so, and a new version waits for the user's
 * Reload (docs/decisions/190).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { expect, makeUser, serviceWorkerReady, test } from "./fixtures";
import { rememberSetCookie } from "./secrets";
import { GOLDEN_DATA_DIR_ENV, ROOT, SERVER_LOG_DIR, startServer } from "./server";

/**
 * Waits until the page's service worker has activated (its install, the precache, is then complete);
 * returns its state. `ready` resolves as soon as a worker is activating.
 */

/** Width and height from a PNG's IHDR chunk (bytes 16 to 24). */
function pngSize(body: Buffer): { width: number; height: number } {
  expect(body.subarray(1, 4).toString("ascii")).toBe("PNG");
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) };
}

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

test("Chromium finds the app installable: a valid manifest, PNG icons and an active worker", async ({
  page,
}, testInfo) => {
  await page.goto("/login");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");
  const manifestResponse = await page.request.get(href!);
  expect(manifestResponse.ok()).toBe(true);
  const manifest = (await manifestResponse.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: ManifestIcon[];
  };
  expect(manifest).toMatchObject({
    name: "PRITE Study",
    short_name: "PRITE Study",
    start_url: "/",
    display: "standalone",
  });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);

  const pngs = manifest.icons.filter((icon) => icon.type === "image/png");
  const wanted = [
    { sizes: "192x192", purpose: "any" },
    { sizes: "512x512", purpose: "any" },
    { sizes: "512x512", purpose: "maskable" },
  ];
  for (const { sizes, purpose } of wanted) {
    const icon = pngs.find((i) => i.sizes === sizes && (i.purpose ?? "any").includes(purpose));
    expect(icon, `a ${purpose} PNG icon of ${sizes}`).toBeDefined();
    const response = await page.request.get(icon!.src);
    expect(response.headers()["content-type"]).toBe("image/png");
    const { width, height } = pngSize(await response.body());
    expect(`${width}x${height}`).toBe(sizes);
  }

  expect(await serviceWorkerReady(page)).toBe("activated");
  // The worker controls pages loaded after it activated (no clients.claim: a first visit's page
  // keeps running as it was loaded).
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null))
    .toMatch(/\/sw\.js$/);

  // Chromium's own verdict, as its install button uses it. Playwright's contexts are off the record,
  // where Chromium never installs ("in-incognito"): a persistent profile is asked instead.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "prite-e2e-profile-"));
  const persistent = await chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
  });
  try {
    const installPage = persistent.pages()[0] ?? (await persistent.newPage());
    await installPage.goto(new URL("/login", page.url()).href);
    expect(await serviceWorkerReady(installPage)).toBe("activated");
    const cdp = await persistent.newCDPSession(installPage);
    const appManifest = (await cdp.send("Page.getAppManifest")) as {
      errors: { message: string }[];
      url: string;
    };
    expect(appManifest.errors).toEqual([]);
    expect(appManifest.url).toMatch(/\/manifest\.webmanifest$/);
    await expect
      .poll(async () => {
        const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as {
          installabilityErrors: { errorId: string }[];
        };
        return installabilityErrors.map((e) => e.errorId);
      })
      .toEqual([]);
  } finally {
    await persistent.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test("offline, a reload opens the shell from the service worker and the API is never served from it", async ({
  page,
  context,
  user,
}) => {
  await page.goto("/");
  await expect(page.getByRole("banner")).toContainText(user.username);
  expect(await serviceWorkerReady(page)).toBe("activated");

  await context.setOffline(true);
  await page.reload();
  // The page is the app's, from the precache: the network has nothing to give. The app opens as the
  // user last signed in on this device (the offline copy's owner), with the offline strip.
  await expect(page.getByRole("banner")).toContainText(user.username);
  await expect(page.getByRole("status").filter({ hasText: /^Offline$/ })).toBeVisible();
  await expect(page).toHaveTitle(/PRITE Study/);
  await expect(page.getByText("Failed to load your study statistics")).toHaveCount(0);
  // Another SPA route opens from the same precached shell, and says it needs the server.
  await page.goto("/browse");
  await expect(page.getByRole("heading", { name: "This page needs a connection" })).toBeVisible();
  // Nothing but the precache is kept: no API answer is in any of the worker's caches.
  const cachedApi = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
    }
    return urls.filter((u) => u.startsWith("/api") || u.startsWith("/trpc"));
  });
  expect(cachedApi).toEqual([]);

  await context.setOffline(false);
  // Back online, the page loads by itself.
  await expect(page.getByRole("banner")).toContainText(user.username);

  // The navigation fallback never answers for the API: offline, it fails as the network fails. Last,
  // and one navigation per tab: a failed navigation leaves its tab on Chromium's error page.
  await context.setOffline(true);
  for (const url of ["/api/health", "/api/auth/me", "/trpc/auth.me"]) {
    const probe = await context.newPage();
    await expect(probe.goto(url)).rejects.toThrow(/ERR_INTERNET_DISCONNECTED|ERR_FAILED/);
  }
});

test("offline, Browse says it needs a connection instead of spinning, and comes back as it was", async ({
  page,
  context,
  user,
}) => {
  void user;
  await page.goto("/browse");
  await expect(page.getByRole("heading", { level: 1, name: "Browse Questions" })).toBeVisible();
  const search = page.getByRole("searchbox", { name: "Search questions" });
  await search.fill("lithium");

  await context.setOffline(true);
  await expect(page.getByRole("heading", { name: "This page needs a connection" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Browse Questions" })).toBeVisible();
  await expect(page.getByText("Loading questions...")).toHaveCount(0);
  await expect(search).toBeHidden();
  // The banner under the header; nothing was answered offline, so it has no count.
  await expect(page.getByRole("status").filter({ hasText: /^Offline$/ })).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByRole("heading", { name: "This page needs a connection" })).toHaveCount(0);
  await expect(search).toHaveValue("lithium");
  await expect(page.getByRole("status").filter({ hasText: /^Offline/ })).toHaveCount(0);
});

test("mid-question, a new version waits for the user's Reload, then the page reloads into it", async ({
  browser,
}, testInfo) => {
  // Starting a second server (a copy of the database, PGlite's start) is not the test's time; the
  // spec servers' fixture allows 90 s for it too.
  test.setTimeout(120_000);
  // A build of its own to deploy a new version into, served by a server of its own.
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-e2e-web-"));
  fs.cpSync(path.join(ROOT, "dist", "web"), webDir, { recursive: true });
  const server = await startServer({
    logFile: path.join(SERVER_LOG_DIR, `pwa-update-w${testInfo.workerIndex}-${Date.now()}.log`),
    template: process.env[GOLDEN_DATA_DIR_ENV],
    env: { WEB_DIST_DIR: webDir },
  });
  const context = await browser.newContext({ baseURL: server.url });
  try {
    const page = await context.newPage();
    // A resident with one question due, signed in on this server (its Origin, not the spec server's).
    const post = async (procedure: string, data: unknown) => {
      const response = await page.request.post(`/trpc/${procedure}`, {
        data,
        headers: { origin: server.url },
      });
      rememberSetCookie(response.headers()["set-cookie"]);
      expect(response.ok(), `${procedure}: ${response.status()}`).toBe(true);
    };
    const user = makeUser({ prefix: "pwa" });
    await post("auth.register", { ...user, confirmPassword: user.password });
    await post("questions.create", {
      text: "Which neurotransmitter is depleted in Parkinson disease?",
      options: { A: "Serotonin", B: "Dopamine", C: "GABA", D: "Glutamate", E: "Acetylcholine" },
      correctAnswer: "B",
      category: "Neuroscience",
      part: "1",
      year: 2024,
      isPublic: false,
    });

    await page.goto("/study");
    expect(await serviceWorkerReady(page)).toBe("activated");
    await page.reload();
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
      .toBe(true);
    // Mid-question: an answer chosen, not yet checked.
    await page.getByRole("button", { name: "Start Studying" }).click();
    await expect(page.getByRole("heading", { name: "Question 1/1" })).toBeVisible();
    const chosen = page.getByRole("radio", { name: "B. Dopamine" });
    await chosen.click();
    await expect(chosen).toHaveAttribute("aria-checked", "true");

    deployNewVersion(webDir);
    // What the app does on its hourly check, or when the resident comes back to it.
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });
    const prompt = page.getByRole("status", { name: "Update" });
    await expect(prompt).toContainText("A new version is available");
    // Nothing reloads by itself: the question and the chosen answer are still there a while later.
    await page.waitForTimeout(1500);
    await expect(page.getByRole("heading", { name: "Question 1/1" })).toBeVisible();
    await expect(chosen).toHaveAttribute("aria-checked", "true");
    await expect(page.locator('meta[name="prite-version"]')).toHaveCount(0);

    // The keyboard reaches and presses it.
    const reload = prompt.getByRole("button", { name: "Reload" });
    await reload.focus();
    await expect(reload).toBeFocused();
    await Promise.all([page.waitForEvent("load"), page.keyboard.press("Enter")]);
    await expect(page.locator('meta[name="prite-version"]')).toHaveAttribute("content", "2");
    await expect(page.getByRole("status", { name: "Update" })).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1, name: "Study" })).toBeVisible();
  } finally {
    await context.close();
    await server.stop();
    fs.rmSync(webDir, { recursive: true, force: true });
  }
});

/**
 * What a deploy changes: a new index.html, and a service worker whose precache lists its new
 * revision (Workbox's revision is the file's MD5). The precompressed copies of both are dropped so
 * the server sends the new files.
 */
function deployNewVersion(webDir: string): void {
  const indexPath = path.join(webDir, "index.html");
  const oldIndex = fs.readFileSync(indexPath, "utf8");
  const newIndex = oldIndex.replace("<head>", '<head><meta name="prite-version" content="2">');
  expect(newIndex).not.toBe(oldIndex);
  const md5 = (text: string) => crypto.createHash("md5").update(text).digest("hex");
  const swPath = path.join(webDir, "sw.js");
  const sw = fs.readFileSync(swPath, "utf8");
  expect(sw).toContain(md5(oldIndex));
  fs.writeFileSync(indexPath, newIndex);
  fs.writeFileSync(swPath, sw.replace(md5(oldIndex), md5(newIndex)));
  for (const file of ["index.html", "sw.js"]) {
    for (const ext of [".br", ".gz"]) fs.rmSync(path.join(webDir, file + ext), { force: true });
  }
}
