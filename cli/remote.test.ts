import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestUser } from "../src/server/test/harness";
import { failureMessage } from "./command";
import { login, logout, whoami } from "./commands/auth";
import { runExport } from "./commands/export";
import { runImport } from "./commands/import";
import { listUsers } from "./commands/users";
import { configPath, readConfig, writeConfig } from "./config";
import { describeError } from "./output";
import { apiFromCaller, openRemote, openSession } from "./runtime";
import { prite, REAL, type PriteEnv } from "./test-bin";

const MMLU = path.join(REAL, "mmlu_clinical_knowledge_dev.csv");
const PASSWORD = "correct horse battery";

let h: Harness;
let admin: TestUser;
let resident: TestUser;
let url: string;
let tmp: string;
let env: PriteEnv;
const savedXdg = process.env.XDG_CONFIG_HOME;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user();
  resident = await h.user();
  const app = await h.app();
  await app.listen({ port: 0, host: "127.0.0.1" });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-remote-"));
  process.env.XDG_CONFIG_HOME = path.join(tmp, "config");
  env = { dataDir: path.join(tmp, "data"), configHome: path.join(tmp, "config"), cwd: tmp };
});
afterAll(async () => {
  if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedXdg;
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("prite login / whoami / logout against a listening server", () => {
  it("login stores the token 0600 in a 0700 folder; later sessions are remote as that user", async () => {
    const result = await login(`${url}/`, resident.user.username, PASSWORD);
    expect(result).toMatchObject({
      server: url,
      user: { username: resident.user.username },
      config: configPath(),
    });
    expect(fs.statSync(configPath()).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(configPath())).mode & 0o777).toBe(0o700);
    const stored = readConfig();
    expect(stored).toMatchObject({ server: url, username: resident.user.username });
    expect(stored.token).toMatch(/.{20,}/);

    const session = await openSession({});
    expect(session).toMatchObject({
      mode: "remote",
      server: url,
      signedIn: true,
      actingAs: resident.user.username,
    });
    expect(await whoami(session)).toMatchObject({
      mode: "remote",
      server: url,
      user: { username: resident.user.username, isAdmin: false },
    });
  });

  it("whoami in local mode names the acting user and no server", async () => {
    const local = {
      api: apiFromCaller(admin.caller),
      mode: "local" as const,
      actingAs: admin.user.username,
      close: async () => {},
    };
    expect(await whoami(local)).toEqual({
      mode: "local",
      user: expect.objectContaining({ username: admin.user.username, isAdmin: true }),
    });
  });

  it("a wrong password is refused in the login form's words and keeps the stored login", async () => {
    const before = readConfig();
    await expect(login(url, resident.user.username, "not the password")).rejects.toThrow(
      "Invalid username or password",
    );
    await expect(login(url, resident.user.username, "")).rejects.toMatchObject({
      message: "Please enter all fields",
      exitCode: 2,
    });
    await expect(login("localhost:3000", "x", "y")).rejects.toMatchObject({ exitCode: 2 });
    expect(readConfig()).toEqual(before);
  });

  it("a subprocess uses the stored login: same user, same output as in-process", async () => {
    const r = await prite(["whoami", "--json"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      mode: "remote",
      server: url,
      user: { username: resident.user.username },
    });
    const human = await prite(["whoami"], env);
    expect(human.stdout).toBe(`${resident.user.username} (remote, ${url})\n`);
    // --server naming another server sends no token: nobody is acting there.
    const other = await openSession({ server: "http://127.0.0.1:9" });
    expect(other).toMatchObject({ mode: "remote", signedIn: false, actingAs: null });
  });

  it("an expired or revoked token says to log in again, in a subprocess too", async () => {
    const good = readConfig();
    writeConfig({ ...good, token: "this-token-was-never-issued" });
    try {
      const session = await openSession({});
      const err = await session.api.auth.me.query().catch((e: unknown) => e);
      const expected = `Please sign in to continue: your login to ${url} has expired or was signed out. Log in again with \`prite login --server ${url}\`.`;
      expect(failureMessage(err, session)).toBe(expected);

      const r = await prite(["answer-keys", "list"], env);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`Error: ${expected}\n`);
      const json = await prite(["answer-keys", "list", "--json"], env);
      expect(JSON.parse(json.stderr)).toEqual({ error: expected });
    } finally {
      writeConfig(good);
    }
  });

  it("logout ends the session on the server and forgets the login", async () => {
    const { token } = readConfig();
    expect(await logout()).toEqual({ server: url, serverSignedOut: true });
    expect(fs.existsSync(configPath())).toBe(false);
    const err = await openRemote(url, token)
      .api.auth.me.query()
      .catch((e: unknown) => e);
    expect((err as { data?: { code?: string } }).data?.code).toBe("UNAUTHORIZED");
    expect(await logout()).toEqual({ server: null, serverSignedOut: false });
  });
});

describe("remote mode gives the same results as local mode", () => {
  beforeAll(async () => {
    await login(url, resident.user.username, PASSWORD);
  });

  it("import gives the same summary remotely as locally, and re-imports find the duplicates", async () => {
    const remote = await openSession({});
    const first = await runImport(remote.api, [MMLU], { part: "1", year: "2024" });
    expect(first).toMatchObject({ total: 5, imported: 5, duplicates: 0 });
    // The same file through the local caller of the same user: identical output.
    const local = await runImport(apiFromCaller(resident.caller), [MMLU], {
      part: "1",
      year: "2024",
      dryRun: true,
    });
    const remoteDry = await runImport(remote.api, [MMLU], {
      part: "1",
      year: "2024",
      dryRun: true,
    });
    expect(remoteDry).toEqual(local);
    expect(remoteDry).toMatchObject({ duplicates: 5, skipped: 5, imported: 0 });
  });

  it("export and admin refusals read the same remotely", async () => {
    const remote = await openSession({});
    const out = path.join(tmp, "q.json");
    await runExport(remote.api, "questions", out);
    expect(JSON.parse(fs.readFileSync(out, "utf8"))).toHaveLength(5);
    const remoteError = await listUsers(remote.api).catch((e: unknown) => describeError(e));
    const localError = await listUsers(apiFromCaller(resident.caller)).catch((e: unknown) =>
      describeError(e),
    );
    expect(remoteError).toBe("You do not have permission to access this page.");
    expect(localError).toBe(remoteError);
    const adminApi = openRemote(url, admin.token).api;
    expect((await listUsers(adminApi)).length).toBeGreaterThanOrEqual(2);
  });

  it("a server that is not there is reported in words, not a stack", async () => {
    const { api } = openRemote("http://127.0.0.1:9", undefined);
    const message = await api.auth.me.query().catch((e: unknown) => describeError(e));
    expect(message).toBe(
      "Could not reach the server. Is it running, and is the --server URL right?",
    );
  });
});
