import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { questions } from "../../src/server/db/schema";
import { createHarness, type Harness, type TestUser } from "../../src/server/test/harness";
import { apiFromCaller, type Api } from "../runtime";
import { applyAnswerKey, importAnswerKey, listAnswerKeys, readKeyText } from "./answer-keys";
import { defaultExportFile, runExport } from "./export";
import { addUser, formatUsers, listUsers, resetLink, setRole } from "./users";

let h: Harness;
let admin: TestUser;
let resident: TestUser;
let adminApi: Api;
let residentApi: Api;
let tmp: string;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user();
  resident = await h.user();
  adminApi = apiFromCaller(admin.caller);
  residentApi = apiFromCaller(resident.caller);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-"));
});
afterAll(async () => {
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("prite answer-keys", () => {
  it("import (from a file and from standard input), list and apply", async () => {
    for (let n = 1; n <= 3; n++) {
      await h.db.db.insert(questions).values({
        creatorId: resident.user.id,
        text: `Answer key question ${n}`,
        options: { A: "a", B: "b", C: "c" },
        correctAnswer: n === 3 ? "A" : "",
        part: "1",
        year: 2024,
        number: n,
      });
    }
    const file = path.join(tmp, "key.txt");
    // A heading or other prose line is not an answer and is passed over; a dropped question is named.
    fs.writeFileSync(file, "Part 1 answer key\n1. B\n2. C\n3. B\n4. Drop\n");
    const { key, warnings } = await importAnswerKey(residentApi, await readKeyText(file), {
      part: "1",
      year: "2024",
    });
    expect(key).toMatchObject({ part: "1", year: 2024, count: 3 });
    expect(warnings).toEqual(["Question 4 was dropped from the key; no answer was recorded."]);

    const stdin = new PassThrough();
    const reading = readKeyText("-", stdin);
    stdin.end("1 A\n2 B\n");
    await importAnswerKey(residentApi, await reading, { part: "2", year: "2023" });

    const list = await listAnswerKeys(residentApi);
    expect(list.map((k) => `${k.part}/${k.year}/${k.count}`).sort()).toEqual([
      "1/2024/3",
      "2/2023/2",
    ]);

    const kept = await applyAnswerKey(residentApi, { part: "1", year: "2024" });
    expect(kept).toMatchObject({ matched: 3, applied: 2, kept: 1 });
    const over = await applyAnswerKey(residentApi, { part: "1", year: "2024", overwrite: true });
    expect(over).toMatchObject({ matched: 3, applied: 1 });
  });

  it("bad part/year are usage errors; an empty key is refused in the product's words", async () => {
    await expect(
      importAnswerKey(residentApi, "1. A", { part: "3", year: "2024" }),
    ).rejects.toMatchObject({ exitCode: 2 });
    await expect(
      importAnswerKey(residentApi, "nothing here", { part: "1", year: "2024" }),
    ).rejects.toThrow("The answer key has no answers");
    await expect(readKeyText(path.join(tmp, "missing.txt"))).rejects.toThrow(/Cannot read/);
  });
});

describe("prite export", () => {
  it("writes the same JSON as the web export, to a dated file name by default", async () => {
    const out = path.join(tmp, "questions.json");
    const result = await runExport(residentApi, "questions", out);
    expect(result.file).toBe(out);
    const written = JSON.parse(fs.readFileSync(out, "utf8")) as unknown[];
    const web = await resident.caller.users.exportQuestions();
    expect(written).toEqual(JSON.parse(JSON.stringify(web.questions)));
    expect(written).toHaveLength(3);

    const now = new Date(2026, 0, 9, 12);
    expect(defaultExportFile("study-data", now)).toBe("prite_study_data_2026-01-09.json");
    expect(defaultExportFile("questions", now)).toBe("prite_questions_2026-01-09.json");
  });

  it("-o - writes study data to standard output", async () => {
    const stream = new PassThrough();
    let text = "";
    stream.on("data", (c: Buffer) => (text += c.toString()));
    const result = await runExport(residentApi, "study-data", "-", stream);
    expect(result.file).toBeNull();
    const data = JSON.parse(text) as Record<string, unknown>;
    const web = await resident.caller.users.exportStudyData();
    // The same values as the Settings page's download, not only the same keys; only the moment of
    // the export differs between the two calls.
    const { exportedAt, ...rest } = data;
    const { exportedAt: webExportedAt, ...webRest } = JSON.parse(
      JSON.stringify(web.data),
    ) as Record<string, unknown>;
    expect(rest).toEqual(webRest);
    expect(Date.parse(String(exportedAt))).toBeLessThanOrEqual(Date.parse(String(webExportedAt)));
    // Not an empty export: the resident's answer keys from the test above are in it.
    expect(JSON.stringify(rest.answerKeys)).toContain('"year":2024');
    expect(rest.user).toMatchObject({ username: resident.user.username });
  });

  it("an unknown export is a usage error", async () => {
    await expect(runExport(residentApi, "everything" as never)).rejects.toMatchObject({
      exitCode: 2,
    });
  });
});

describe("prite users", () => {
  it("list, promote and demote as an admin", async () => {
    const list = await listUsers(adminApi);
    expect(list.map((u) => u.username)).toEqual(
      expect.arrayContaining([admin.user.username, resident.user.username]),
    );
    expect(formatUsers(list)).toContain(resident.user.username);
    const promoted = await setRole(adminApi, resident.user.username.toUpperCase(), true);
    // The changed account's own row, with its own question count (3 from the answer-key test).
    expect(promoted).toEqual({
      changed: true,
      user: { ...list.find((u) => u._id === resident.user.id)!, isAdmin: true },
    });
    expect(promoted.user.questionsAdded).toBe(3);
    expect(await setRole(adminApi, resident.user.username, true)).toMatchObject({
      changed: false,
      user: { isAdmin: true },
    });
    expect((await setRole(adminApi, resident.user.username, false)).user.isAdmin).toBe(false);
    await expect(setRole(adminApi, "nobody-here", true)).rejects.toThrow("User not found");
  });

  it("reset-link makes a one-time link that sets a new password (admins only)", async () => {
    const link = await resetLink(adminApi, resident.user.username, "https://prite.example.org");
    expect(link.url).toBe(`https://prite.example.org${link.path}`);
    expect(link.path).toMatch(/^\/reset-password\?token=[\w-]{43}$/);
    const token = link.path.split("=")[1]!;
    await h.anonymous.auth.resetPassword({ token, password: "a fresh passphrase 2" });
    expect((await h.signIn(resident.user.username, "a fresh passphrase 2")).statusCode).toBe(200);
    await expect(resetLink(residentApi, admin.user.username)).rejects.toThrow(
      "You do not have permission to access this page.",
    );
  });

  it("add creates an account as the Sign Up page does, with its rules and words", async () => {
    const user = await addUser(residentApi, {
      username: "cli-added",
      email: "cli-added@example.org",
      pgyLevel: "2",
      password: "a long enough password",
    });
    expect(user).toMatchObject({ username: "cli-added", pgyLevel: "2", isAdmin: false });
    expect((await listUsers(adminApi)).map((u) => u.username)).toContain("cli-added");
    await expect(
      addUser(residentApi, {
        username: "CLI-added",
        email: "other@example.org",
        pgyLevel: "2",
        password: "a long enough password",
      }),
    ).rejects.toThrow("Username is already taken");
    await expect(
      addUser(residentApi, {
        username: "cli-short",
        email: "short@example.org",
        pgyLevel: "2",
        password: "x",
        confirmPassword: "x",
      }),
    ).rejects.toThrow(/Password must be at least/);
    await expect(
      addUser(residentApi, {
        username: "cli-mismatch",
        email: "mismatch@example.org",
        pgyLevel: "PGY-9",
        password: "a long enough password",
      }),
    ).rejects.toThrow("Please select a PGY level");
  });

  it("a regular user is refused in the product's words", async () => {
    await expect(listUsers(residentApi)).rejects.toThrow(
      "You do not have permission to access this page.",
    );
    await expect(setRole(residentApi, resident.user.username, true)).rejects.toMatchObject({
      data: { code: "FORBIDDEN" },
    });
  });

  it("the last admin cannot demote themselves", async () => {
    await expect(setRole(adminApi, admin.user.username, false)).rejects.toThrow(/last admin/);
  });
});
