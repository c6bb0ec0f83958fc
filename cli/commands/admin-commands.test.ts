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
import { formatUsers, listUsers, setRole } from "./users";

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
    fs.writeFileSync(file, "1. B\n2. C\n3. B\nthis line is not an answer\n");
    const { key, warnings } = await importAnswerKey(residentApi, await readKeyText(file), {
      part: "1",
      year: "2024",
    });
    expect(key).toMatchObject({ part: "1", year: 2024, count: 3 });
    expect(Array.isArray(warnings)).toBe(true);

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
    expect(Object.keys(data).sort()).toEqual(Object.keys(web.data).sort());
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
    expect((await setRole(adminApi, resident.user.username, true)).changed).toBe(true);
    expect((await setRole(adminApi, resident.user.username, false)).user.isAdmin).toBe(false);
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
