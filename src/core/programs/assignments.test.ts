import { describe, expect, it } from "vitest";
import { assignmentStatus, dueInstant, ZCreateAssignment, ZUpdateAssignment } from "./assignments";

describe("assignmentStatus (decision 356)", () => {
  const due = new Date("2026-03-10T23:59:59.999Z");
  const before = new Date("2026-03-09T12:00:00Z");
  const after = new Date("2026-03-11T12:00:00Z");
  it.each([
    [false, null, before, "not_started"],
    [true, null, before, "in_progress"],
    [true, before, before, "done"],
    [true, before, after, "done"],
    [true, due, after, "done"],
    [true, after, after, "late"],
    [true, null, after, "late"],
    [false, null, after, "late"],
  ] as const)("started %s, finished %s, now %s: %s", (started, finishedAt, now, expected) => {
    expect(assignmentStatus({ started, finishedAt, dueAt: due, now })).toBe(expected);
  });
});

describe("dueInstant", () => {
  it("reads a bare date as the last millisecond of that day in the zone", () => {
    expect(dueInstant("2026-03-10", "UTC").toISOString()).toBe("2026-03-10T23:59:59.999Z");
    expect(dueInstant("2026-03-10", "America/New_York").toISOString()).toBe(
      "2026-03-11T03:59:59.999Z",
    );
    // The day US clocks go forward (8 March 2026): midnight after it is already EDT.
    expect(dueInstant("2026-03-08", "America/New_York").toISOString()).toBe(
      "2026-03-09T03:59:59.999Z",
    );
    expect(dueInstant("2026-07-01", "Asia/Kolkata").toISOString()).toBe("2026-07-01T18:29:59.999Z");
    expect(dueInstant("2026-07-01T10:00:00Z", "Asia/Kolkata").toISOString()).toBe(
      "2026-07-01T10:00:00.000Z",
    );
  });
});

describe("the inputs", () => {
  it("parse an exam and a study set, and refuse what the messages say", () => {
    expect(
      ZCreateAssignment.parse({ kind: "exam", size: "20", due: "2026-03-10", pgyLevel: "2" }),
    ).toMatchObject({ kind: "exam", size: 20, mode: "timed", part: "both", pgyLevel: "2" });
    expect(ZCreateAssignment.parse({ kind: "study", count: 5, due: "2026-03-10" })).toMatchObject({
      kind: "study",
      count: 5,
      categories: [],
      pgyLevel: null,
    });
    const issue = (v: unknown) => ZCreateAssignment.safeParse(v).error?.issues[0]?.message;
    expect(issue({ kind: "study", count: 0, due: "2026-03-10" })).toMatch(
      /^Number of questions to answer/,
    );
    expect(issue({ kind: "exam", size: 20, due: "10/03/2026" })).toMatch(/^Due date must be/);
    expect(issue({ kind: "exam", size: 20, due: "2026-03-10", pgyLevel: "9" })).toMatch(
      /^PGY class/,
    );
    const id = "00000000-0000-4000-8000-000000000000";
    expect(ZUpdateAssignment.safeParse({ assignmentId: id }).success).toBe(false);
    expect(
      ZUpdateAssignment.safeParse({ assignmentId: id, closed: true, due: "2026-03-10" }).success,
    ).toBe(false);
    expect(ZUpdateAssignment.safeParse({ assignmentId: id, due: "2026-03-10" }).success).toBe(true);
  });
});
