import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestUser } from "../src/server/test/harness";
import { runImport } from "./commands/import";
import { listUsers } from "./commands/users";
import { runExport } from "./commands/export";
import { configPath, readConfig, writeConfig } from "./config";
import { describeError } from "./output";
import { apiFromCaller, openRemote, openSession } from "./runtime";

const MMLU = path.resolve(__dirname, "../../shared/fixtures/real/mmlu_clinical_knowledge_dev.csv");

let h: Harness;
let admin: TestUser;
let resident: TestUser;
let url: string;
let tmp: string;
const savedXdg = process.env.XDG_CONFIG_HOME;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user();
  resident = await h.user();
  const app = await h.app();
  await app.listen({ port: 0, host: "127.0.0.1" });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-remote-"));
  process.env.XDG_CONFIG_HOME = tmp;
});
afterAll(async () => {
  if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedXdg;
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("remote mode (tRPC over HTTP to a listening server)", () => {
  it("a stored login (0600) makes later commands remote, acting as that user", async () => {
    const { api } = openRemote(url, undefined);
    const login = await api.auth.login.mutate({
      username: resident.user.username,
      password: "correct horse battery",
    });
    expect(login.token).toBeTruthy();
    writeConfig({ server: url, token: login.token!, username: login.user.username });
    expect(fs.statSync(configPath()).mode & 0o777).toBe(0o600);
    const session = await openSession({});
    expect(session.mode).toBe("remote");
    expect((await session.api.auth.me.query()).username).toBe(resident.user.username);
  });

  it("import gives the same summary remotely as locally, and re-imports find the duplicates", async () => {
    const remote = openRemote(url, readConfig().token);
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
    const remote = openRemote(url, readConfig().token);
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
