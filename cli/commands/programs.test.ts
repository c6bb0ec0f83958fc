import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../src/server/test/harness";
import { main } from "../index";
import { apiFromCaller, openRemote } from "../runtime";
import { captureRun } from "../test-output";
import {
  createProgramCommand,
  joinProgramCommand,
  leaveCommand,
  membersCommand,
  NO_PROGRAM,
  removeCommand,
  renewCodeCommand,
  setRoleCommand,
} from "./programs";

let h: Harness;
let url: string;

beforeAll(async () => {
  h = await createHarness();
  await h.user(); // the first account is the admin
  const app = await h.app();
  await app.listen({ port: 0, host: "127.0.0.1" });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h.close();
});

describe("prite programs (the same procedures as the SPA and REST)", () => {
  it("create prints the code and link; join, members, promote, demote, remove, renew-code, leave", async () => {
    const chief = await h.user({ username: `chief_${Date.now() % 100000}` });
    const alice = await h.user({ username: `alice_${Date.now() % 100000}`, pgyLevel: "1" });
    const bob = await h.user({ username: `bob_${Date.now() % 100000}`, pgyLevel: "3" });
    const api = apiFromCaller(chief.caller);

    const created = await createProgramCommand(api, "Riverside Psychiatry", {
      institution: "Riverside University",
    });
    const program = created.json as { code: string; joinLink: string; role: string };
    expect(created.human.split("\n")).toEqual([
      "Created Riverside Psychiatry (Riverside University); you are its director.",
      `Join code: ${program.code}`,
      `Join link: /join/${program.code}`,
      "Residents join with `prite programs join CODE` or by opening the link.",
    ]);
    expect(program).toMatchObject({ role: "director", joinLink: `/join/${program.code}` });

    for (const r of [alice, bob]) {
      const joined = await joinProgramCommand(apiFromCaller(r.caller), program.code.toLowerCase());
      expect(joined.human).toBe("Riverside Psychiatry (Riverside University): you are a resident.");
    }
    const members = await membersCommand(api);
    expect(members.human).toContain("Riverside Psychiatry: 3 members, 1 director.");
    const lines = members.human.split("\n");
    expect(lines.findIndex((l) => l.startsWith(alice.user.username))).toBeLessThan(
      lines.findIndex((l) => l.startsWith(bob.user.username)),
    );
    // A resident sees the directors and the class sizes, not classmates.
    const seen = await membersCommand(apiFromCaller(alice.caller));
    expect(seen.human).toContain("Residents by class: PGY-1: 1, PGY-3: 1.");
    expect(seen.human).not.toContain(bob.user.username);

    expect((await setRoleCommand(api, bob.user.username.toUpperCase(), "director")).human).toBe(
      `${bob.user.username} is now a director of Riverside Psychiatry.`,
    );
    expect((await setRoleCommand(api, bob.user.username, "resident")).human).toBe(
      `${bob.user.username} is now a resident of Riverside Psychiatry.`,
    );
    await expect(
      setRoleCommand(apiFromCaller(alice.caller), bob.user.username, "director"),
    ).rejects.toThrow("Only the program's directors can do that");
    await expect(setRoleCommand(api, "nobody-here", "director")).rejects.toThrow(
      "nobody-here is not a member of Riverside Psychiatry.",
    );
    // The only director cannot step down or leave while others remain.
    await expect(setRoleCommand(api, chief.user.username, "resident")).rejects.toThrow(
      "A program needs a director",
    );
    await expect(leaveCommand(api)).rejects.toThrow("You are the program's only director");

    expect((await removeCommand(api, alice.user.username)).human).toBe(
      `Removed ${alice.user.username} from Riverside Psychiatry.`,
    );
    await expect(membersCommand(apiFromCaller(alice.caller))).rejects.toThrow(NO_PROGRAM);

    const renewed = await renewCodeCommand(api);
    const code = (renewed.json as { code: string }).code;
    expect(code).not.toBe(program.code);
    expect(renewed.human).toContain(`New join code: ${code}`);

    expect((await leaveCommand(apiFromCaller(bob.caller))).human).toBe(
      "You left Riverside Psychiatry.",
    );
    expect((await leaveCommand(api)).human).toBe(
      "You left Riverside Psychiatry. You were its last member, so the program was deleted.",
    );
  });

  it("speaks to a server with --server: the link is the server's", async () => {
    const chief = await h.user();
    const remote = openRemote(url, chief.token, chief.user.username);
    const created = await createProgramCommand(remote.api, "Harbor Psychiatry", {}, remote.server);
    const { code } = created.json as { code: string };
    expect(created.human).toContain(`Join link: ${url}/join/${code}`);
    const resident = await h.user();
    const joined = await joinProgramCommand(openRemote(url, resident.token).api, code);
    expect(joined.json).toMatchObject({ name: "Harbor Psychiatry", role: "resident" });
    await expect(joinProgramCommand(openRemote(url, resident.token).api, code)).rejects.toThrow(
      "You are already a member of this program",
    );
  });

  it("--json prints one JSON document; a usage error is exit 2", async () => {
    const r = await captureRun(() => main(["node", "prite", "--json", "programs", "join"]));
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toEqual({ error: "missing required argument 'code'" });
  });
});
