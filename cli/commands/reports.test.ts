import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addQuestion } from "../../src/server/features/study/test-fixtures";
import { createHarness, type Harness, type TestUser } from "../../src/server/test/harness";
import { apiFromCaller, openRemote } from "../runtime";
import {
  addReportCommand,
  listReportsCommand,
  resolveReportCommand,
  takedownCommand,
} from "./reports";

let h: Harness;
let url: string;
let admin: TestUser;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user(); // the first account is the admin
  const app = await h.app();
  await app.listen({ port: 0, host: "127.0.0.1" });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h.close();
});

describe("prite reports (the same procedures as the SPA and REST)", () => {
  it("add, list --open, resolve --fix --note, and the reporter's list --mine shows the answer", async () => {
    const owner = await h.user();
    const reader = await h.user();
    const q = await addQuestion(h.db.db, owner.user.id, {
      isPublic: true,
      text: "Which drug needs a blood count every week at first?",
    });
    const readerApi = apiFromCaller(reader.caller);
    const added = await addReportCommand(readerApi, q.id, {
      kind: "wrong_answer",
      comment: "The key says B; clozapine is A",
    });
    expect(added.human).toMatch(
      /^Reported \(Wrong answer\): report [0-9a-f-]{36}\. Its owner will answer it\.$/,
    );
    const id = (added.json as { report: { id: string } }).report.id;

    // The owner's queue, over HTTP as a remote `prite` speaks it.
    const remote = openRemote(url, owner.token, owner.user.username);
    const listed = await listReportsCommand(remote.api, { open: true });
    const lines = listed.human.split("\n");
    expect(lines[0]).toBe("1 open report to handle.");
    expect(listed.human).toContain(id);
    expect(listed.human).toContain("Wrong answer");
    expect(listed.human).toContain("Which drug needs a blood count");
    expect(listed.json).toMatchObject({ openCount: 1, reports: [{ id, status: "open" }] });

    const resolved = await resolveReportCommand(remote.api, id, {
      fix: true,
      note: "Key corrected to A",
    });
    expect(resolved.human).toBe(
      `Report ${id} is fixed: "Key corrected to A" The reporter sees it under My reports.`,
    );
    expect((await listReportsCommand(remote.api, { open: true })).human).toBe(
      "0 open reports to handle.\nNo reports on questions you handle.",
    );
    const mine = await listReportsCommand(readerApi, { mine: true });
    expect(mine.human).toContain("Fixed");
    expect(mine.human).toContain("Key corrected to A");
    await expect(resolveReportCommand(remote.api, id, { dismiss: true })).rejects.toThrow(
      "This report is already closed",
    );
  });

  it("takedown --restore is for admins, on a question taken down by three copyright reports", async () => {
    const owner = await h.user();
    const q = await addQuestion(h.db.db, owner.user.id, { isPublic: true });
    let last = "";
    for (let i = 0; i < 3; i++) {
      const reader = await h.user();
      last = (await addReportCommand(apiFromCaller(reader.caller), q.id, { kind: "copyright" }))
        .human;
    }
    expect(last).toContain("the question is now out of public view until an admin decides");
    await expect(
      takedownCommand(apiFromCaller(owner.caller), q.id, { restore: true }),
    ).rejects.toThrow();
    const done = await takedownCommand(apiFromCaller(admin.caller), q.id, { restore: true });
    expect(done.human).toBe("Restored to public view; 3 copyright report(s) dismissed.");
  });
});
