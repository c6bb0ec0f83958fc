import { createHash } from "node:crypto";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { findLeaks, readSecrets, readServerLogs } from "./secrets";
import { SERVER_LOG_DIR } from "./server";

// Issue 9 item 5: runs after every spec of the run (the 'server-logs' teardown project of
// playwright.config.ts), over the logs of every server the run started, at LOG_LEVEL=info.
// The plain Playwright `test`: this check starts no server of its own.

test("the servers' logs hold no password, session token, API token or session id", () => {
  const logs = readServerLogs();
  const specLogs = logs.filter((log) => !log.file.endsWith("golden-image.log"));
  test.skip(specLogs.length === 0, "no spec started a server in this run");

  // Something to look through: every server logged its requests, and the run noted its secrets.
  for (const { file, text } of specLogs) {
    expect(text, `${file} logs its requests`).toContain('"msg":"incoming request"');
  }
  const secrets = readSecrets();
  const kinds = new Set(secrets.map((s) => s.kind));
  expect(kinds, "passwords, session tokens and API tokens were noted").toEqual(
    new Set(["password", "session", "token"]),
  );

  expect(findLeaks(logs, secrets)).toEqual([]);
});

test("the scan itself finds a password, a token, a token's session id and an uncensored header", () => {
  const token = "abcdefghijklmnopqrstuvwxyz234567";
  const log = (name: string, text: string) => ({ file: path.join(SERVER_LOG_DIR, name), text });
  const leaks = findLeaks(
    [
      log("a.log", `{"msg":"login","body":"horse-secret-battery"}`),
      log("b.log", `{"req":{"headers":{"cookie":"prite_session=${token}"}}}`),
      log("c.log", `{"req":{"headers":{"cookie":"[redacted]"}}}`),
      log("d.log", `{"session":"${createHash("sha256").update(token).digest("hex")}"}`),
    ],
    [
      { kind: "password", value: "horse-secret-battery" },
      { kind: "session", value: token },
      { kind: "token", value: "not-in-any-log-at-all" },
    ],
  );
  expect(leaks).toEqual([
    "server-logs/a.log: a password (hor…)",
    "server-logs/b.log: a session (abc…)",
    "server-logs/b.log: header cookie logged uncensored",
    "server-logs/d.log: a session id (SHA-256) (84c…)",
  ]);
});
