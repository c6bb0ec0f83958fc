/**
 * The program dashboard (issue 32 items 4-5, docs/product/program-dashboard.md): its figures against a
 * from-scratch computation over generated answers (the review log, exam answers, sessions, states and
 * assignments), roles, leaving, score sharing, thresholds, percentiles and the REST/CSV answer — on the
 * database the suite runs on (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */
import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accuracyPercent,
  flagsFor,
  heatmapCell,
  meanAccuracy,
  type CategoryCount,
} from "../../../core/programs/report";
import { categoryLabel } from "../../../core/stats";
import { parseCsv } from "../../../core/import/csv";
import {
  examAnswers,
  exams,
  mockExams,
  programAssignmentProgress,
  programAssignments,
  reviews,
  studySessions,
  studyStates,
  users,
} from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { addQuestion } from "../study/test-fixtures";
import { makeProgram, putInProgram } from "../../test/programs.fixtures";
import { windowStart, type ProgramReport, type ResidentFigures } from "./program-report.service";

const DAY = 86_400_000;
const QUARTER = 15 * 60_000;
const NOW = new Date(Math.floor(Date.now() / QUARTER) * QUARTER + 7 * 60_000);
const CATS = ["Neuroscience", "Ethics", "", "Psychopharmacology"];

let h: Harness;
let programA: string;
let programB: string;
let director: TestUser;
let directorB: TestUser;
let outsider: TestUser;
let residents: TestUser[];
let residentB: TestUser;

/** A small deterministic generator, so a failure repeats. */
let seed = 42;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;

interface Log {
  userId: string;
  category: string;
  correct: boolean;
  at: number;
}
const logged: Log[] = [];
const sessionsAt = new Map<string, number[]>();
const dueStates: { userId: string; dueAt: number | null; leech: boolean }[] = [];

async function answers(user: TestUser, n: number, maxDaysAgo: number, accuracy: number) {
  const q = await addQuestion(h.db.db, user.user.id, { isPublic: false });
  const rows = Array.from({ length: n }, () => {
    const at = NOW.getTime() - Math.floor(rand() * maxDaysAgo * DAY);
    const category = pick(CATS);
    const correct = rand() < accuracy;
    logged.push({ userId: user.user.id, category, correct, at });
    return {
      userId: user.user.id,
      questionId: q.id,
      category,
      isCorrect: correct,
      selected: ["B"],
      reviewedAt: new Date(at),
    };
  });
  if (rows.length) await h.db.db.insert(reviews).values(rows);
}

/** A submitted exam whose answers count (decision 170), optionally a program's mock exam. */
async function exam(user: TestUser, n: number, mockExamId: string | null, status = "submitted") {
  const qs = await Promise.all(
    Array.from({ length: n }, () => addQuestion(h.db.db, user.user.id, { isPublic: false })),
  );
  const [e] = await h.db.db
    .insert(exams)
    .values({
      userId: user.user.id,
      mode: "tutor",
      requestedSize: n,
      questionCount: n,
      part: "1",
      pool: "all",
      secondsPerQuestion: 60,
      seed: 1,
      mockExamId,
      startedAt: new Date(NOW.getTime() - 2 * DAY),
    })
    .returning({ id: exams.id });
  for (const [i, q] of qs.entries()) {
    const at = NOW.getTime() - 2 * DAY + i * 60_000;
    const correct = i % 2 === 0;
    await h.db.db.insert(examAnswers).values({
      examId: e!.id,
      userId: user.user.id,
      questionId: q.id,
      category: "Ethics",
      selected: ["B"],
      isCorrect: correct,
      answeredAt: new Date(at),
    } as typeof examAnswers.$inferInsert);
    if (status !== "in_progress")
      logged.push({ userId: user.user.id, category: "Ethics", correct, at });
  }
  await h.db.db.update(exams).set({ status }).where(eq(exams.id, e!.id));
}

async function states(user: TestUser, dueDaysFromNow: (number | null)[], leech = false) {
  for (const d of dueDaysFromNow) {
    const q = await addQuestion(h.db.db, user.user.id, { isPublic: false });
    const dueAt = d === null ? null : NOW.getTime() + d * DAY;
    await h.db.db.insert(studyStates).values({
      userId: user.user.id,
      questionId: q.id,
      dueAt: dueAt === null ? null : new Date(dueAt),
      leech,
    });
    dueStates.push({ userId: user.user.id, dueAt, leech });
  }
}

async function session(user: TestUser, daysAgo: number) {
  const at = NOW.getTime() - daysAgo * DAY;
  await h.db.db.insert(studySessions).values({ userId: user.user.id, startedAt: new Date(at) });
  sessionsAt.set(user.user.id, [...(sessionsAt.get(user.user.id) ?? []), at]);
}

let studyAssignment: string;
let mockId: string;

beforeAll(async () => {
  h = await createHarness({ now: () => NOW });
  await h.user(); // the admin
  director = await h.user({ pgyLevel: "4" });
  directorB = await h.user();
  outsider = await h.user({ pgyLevel: "1" });
  residentB = await h.user({ pgyLevel: "1" });
  residents = [];
  for (const pgy of ["1", "1", "1", "1", "1", "2", "3"])
    residents.push(await h.user({ pgyLevel: pgy }));
  programA = await makeProgram(h.db.db, "Program A");
  programB = await makeProgram(h.db.db, "Program B");
  await putInProgram(h.db.db, director.user.id, programA, "director");
  await putInProgram(h.db.db, directorB.user.id, programB, "director");
  await putInProgram(h.db.db, residentB.user.id, programB, "resident");
  for (const [i, r] of residents.entries()) {
    await putInProgram(h.db.db, r.user.id, programA, "resident", {
      joinedAt: new Date(NOW.getTime() - (40 + i) * DAY),
    });
  }
  // Histories: recent and old answers, a weak resident, an idle one, one with only a session.
  await answers(residents[0]!, 60, 40, 0.8);
  await answers(residents[1]!, 40, 10, 0.4);
  await answers(residents[2]!, 30, 365, 0.7);
  await answers(residents[3]!, 25, 6, 0.65);
  await answers(residents[4]!, 20, 60, 0.9);
  await answers(residents[5]!, 3, 90, 0.5);
  await session(residents[6]!, 3);
  await answers(outsider, 30, 20, 0.5);
  await answers(residentB, 30, 20, 0.5);
  // Sharing users make the server's mean.
  for (const u of [residents[0]!, residents[2]!, outsider]) {
    await h.db.db.update(users).set({ shareUsageData: true }).where(eq(users.id, u.user.id));
  }
  await states(residents[0]!, [-3, -1, null, 2, 10]);
  await states(residents[1]!, [-20, 5]);
  // A leech is out of the due list until it is reset, so out of the backlog too.
  await states(residents[1]!, [-2], true);
  // Assignments: a study set for everyone (resident 0 completed it), a mock exam for PGY 1 (resident 1
  // submitted it, resident 3 still taking it), a closed one for PGY 2 counted too.
  const [m] = await h.db.db
    .insert(mockExams)
    .values({
      creatorId: director.user.id,
      code: "RPTMOCK1",
      mode: "timed",
      part: "both",
      secondsPerQuestion: 90,
      seed: 7,
      programId: programA,
    })
    .returning({ id: mockExams.id });
  mockId = m!.id;
  const [s] = await h.db.db
    .insert(programAssignments)
    .values([
      {
        programId: programA,
        kind: "study",
        title: "Ethics week",
        questionCount: 10,
        categories: ["Ethics"],
        dueAt: new Date(NOW.getTime() + 3 * DAY),
      },
      {
        programId: programA,
        kind: "exam",
        title: "Mock 1",
        pgyLevel: "1",
        mockExamId: mockId,
        questionCount: 3,
        dueAt: new Date(NOW.getTime() + 3 * DAY),
      },
      {
        programId: programA,
        kind: "study",
        title: "Closed",
        pgyLevel: "2",
        questionCount: 5,
        dueAt: new Date(NOW.getTime() - 3 * DAY),
        closedAt: new Date(NOW.getTime() - DAY),
      },
    ])
    .returning({ id: programAssignments.id });
  studyAssignment = s!.id;
  await h.db.db.insert(programAssignmentProgress).values([
    {
      assignmentId: studyAssignment,
      userId: residents[0]!.user.id,
      answered: 10,
      completedAt: NOW,
    },
    { assignmentId: studyAssignment, userId: residents[1]!.user.id, answered: 4 },
  ]);
  await exam(residents[1]!, 3, mockId, "submitted");
  await exam(residents[3]!, 3, mockId, "in_progress");
  await exam(residents[4]!, 2, null, "expired");
}, 120_000);

afterAll(async () => {
  await h.close();
});

// ---------------------------------------------------------------------------------------------------
// From scratch

function countsFromLog(userId: string) {
  const mine = logged.filter((l) => l.userId === userId);
  const byCat = new Map<string, CategoryCount>();
  for (const l of mine) {
    const c = byCat.get(categoryLabel(l.category)) ?? { answered: 0, correct: 0 };
    c.answered += 1;
    c.correct += l.correct ? 1 : 0;
    byCat.set(categoryLabel(l.category), c);
  }
  return { mine, byCat };
}

function expectedRow(
  r: TestUser,
  inactiveDays = 14,
  accuracyFlag = 0.6,
): Omit<ResidentFigures, "username" | "displayName"> {
  const { mine, byCat } = countsFromLog(r.user.id);
  const answered = mine.length;
  const correct = mine.filter((l) => l.correct).length;
  const activity = [...mine.map((l) => l.at), ...(sessionsAt.get(r.user.id) ?? [])];
  const lastActive = activity.length
    ? new Date(Math.floor(Math.max(...activity) / QUARTER) * QUARTER)
    : null;
  const since = (d: number) => windowStart(NOW, d).getTime();
  const i = residents.indexOf(r);
  const joinedAt = new Date(NOW.getTime() - (40 + i) * DAY);
  const pgy = r.user.pgyLevel;
  const aimed = [true, pgy === "1", pgy === "2"].filter(Boolean).length;
  const done =
    (i === 0 ? 1 : 0) + // the study set's completed progress
    (i === 1 ? 1 : 0); // the submitted mock exam
  const cells: ResidentFigures["cells"] = {};
  for (const [cat, c] of byCat) cells[cat] = heatmapCell(c.answered, c.correct);
  return {
    userId: r.user.id,
    pgyLevel: pgy,
    joinedAt: joinedAt.toISOString(),
    lastActive: lastActive?.toISOString() ?? null,
    answered7: mine.filter((l) => l.at >= since(7)).length,
    answered30: mine.filter((l) => l.at >= since(30)).length,
    answered,
    accuracy: accuracyPercent(correct, answered),
    dueBacklog: dueStates.filter(
      (s) => s.userId === r.user.id && !s.leech && (s.dueAt === null || s.dueAt <= NOW.getTime()),
    ).length,
    assignmentsDone: done,
    assignmentsTotal: aimed,
    flags: flagsFor({
      lastActive,
      joinedAt,
      answered,
      correct,
      now: NOW,
      inactiveDays,
      accuracyFlag,
    }),
    cells,
  };
}

const strip = ({ username: _u, displayName: _d, ...rest }: ResidentFigures) => rest;

describe("the dashboard's figures", () => {
  let report: ProgramReport;
  beforeAll(async () => {
    report = await director.caller.programReport.report();
  });

  it("equal a from-scratch computation over the answers, per resident", () => {
    expect(report.residents.map((r) => r.userId).sort()).toEqual(
      residents.map((r) => r.user.id).sort(),
    );
    for (const r of residents) {
      const row = report.residents.find((x) => x.userId === r.user.id)!;
      expect(strip(row)).toEqual(expectedRow(r));
    }
    // Classes in training order, the weak and the idle flagged.
    expect(report.residents.map((r) => r.pgyLevel)).toEqual(["1", "1", "1", "1", "1", "2", "3"]);
    expect(report.residents.find((r) => r.userId === residents[5]!.user.id)!.flags[0]!.kind).toBe(
      "inactive",
    );
  });

  it("compute the class, program and server means from each member's accuracy", () => {
    const mean = (ids: string[], cat: string) =>
      meanAccuracy(ids.map((id) => countsFromLog(id).byCat.get(cat)));
    const pgy1 = residents.filter((r) => r.user.pgyLevel === "1").map((r) => r.user.id);
    const sharing = [residents[0]!, residents[2]!, outsider].map((r) => r.user.id);
    for (const cat of report.categories) {
      expect(report.classMeans.find((c) => c.pgyLevel === "1")!.means[cat]).toEqual(
        mean(pgy1, cat),
      );
      expect(report.programMeans[cat]).toEqual(
        mean(
          residents.map((r) => r.user.id),
          cat,
        ),
      );
      const server = mean(sharing, cat);
      if (server.members === 0) expect(report.serverMeans[cat]).toBeUndefined();
      else expect(report.serverMeans[cat]).toEqual(server);
    }
    expect(report.categories).toEqual([
      "Neuroscience",
      "Ethics",
      "Psychopharmacology",
      "Uncategorized",
    ]);
  });

  it("carry figures only: no answer, question or review of anyone", () => {
    const text = JSON.stringify(report);
    for (const key of ["questionId", "selected", "isCorrect", "reviewedAt", "text"]) {
      expect(text).not.toContain(`"${key}"`);
    }
  });

  it("show a resident exactly their own row in 'What my program sees'", async () => {
    for (const r of residents) {
      const mine = await r.caller.programReport.mine();
      expect(mine!.role).toBe("resident");
      expect(mine!.row).toEqual(report.residents.find((x) => x.userId === r.user.id));
    }
    expect(await outsider.caller.programReport.mine()).toBeNull();
    expect((await director.caller.programReport.mine())!.row).toBeNull();
  });
});

describe("who may see it", () => {
  const code = async (p: Promise<unknown>) => {
    try {
      await p;
      return "OK";
    } catch (e) {
      return e instanceof TRPCError ? e.code : String(e);
    }
  };

  it("refuses residents, users without a program and another program's directors", async () => {
    expect(await code(residents[0]!.caller.programReport.report())).toBe("FORBIDDEN");
    expect(
      await code(
        residents[0]!.caller.programReport.setThresholds({ inactiveDays: 1, accuracyFlag: 0.5 }),
      ),
    ).toBe("FORBIDDEN");
    expect(await code(outsider.caller.programReport.report())).toBe("FORBIDDEN");
    expect(await code(directorB.caller.programReport.report({ programId: programA }))).toBe(
      "NOT_FOUND",
    );
    expect(
      await code(
        directorB.caller.programReport.setThresholds({
          programId: programA,
          inactiveDays: 1,
          accuracyFlag: 0.5,
        }),
      ),
    ).toBe("NOT_FOUND");
    expect(await code(director.caller.programReport.report({ programId: programA }))).toBe("OK");
  });

  it("drops a resident who leaves at once, and a director who leaves loses it at once", async () => {
    const leaver = await h.user({ pgyLevel: "2" });
    await putInProgram(h.db.db, leaver.user.id, programA, "resident");
    const ids = async () =>
      (await director.caller.programReport.report()).residents.map((r) => r.userId);
    expect(await ids()).toContain(leaver.user.id);
    await putInProgram(h.db.db, leaver.user.id, null);
    expect(await ids()).not.toContain(leaver.user.id);
    expect(await leaver.caller.programReport.mine()).toBeNull();

    const chief = await h.user();
    await putInProgram(h.db.db, chief.user.id, programA, "director");
    expect(await code(chief.caller.programReport.report())).toBe("OK");
    await putInProgram(h.db.db, chief.user.id, null);
    expect(await code(chief.caller.programReport.report())).toBe("FORBIDDEN");
  });
});

describe("thresholds", () => {
  it("are the directors' to set, and move the flags", async () => {
    const program = await director.caller.programReport.setThresholds({
      inactiveDays: 2,
      accuracyFlag: 0.75,
    });
    expect(program).toMatchObject({ inactiveDays: 2, accuracyFlag: 0.75 });
    const report = await director.caller.programReport.report();
    for (const r of residents) {
      expect(report.residents.find((x) => x.userId === r.user.id)!.flags).toEqual(
        expectedRow(r, 2, 0.75).flags,
      );
    }
    await expect(
      director.caller.programReport.setThresholds({ inactiveDays: 0, accuracyFlag: 0.5 }),
    ).rejects.toThrow("Inactive days must be between 1 and 365");
    await director.caller.programReport.setThresholds({ inactiveDays: 14, accuracyFlag: 0.6 });
  });
});

describe("PRITE scores", () => {
  it("reach the dashboard only while the resident shares them (off by default)", async () => {
    const r = residents[2]!;
    await r.caller.scores.create({ year: 2025, overallPercentile: 62 });
    await residents[6]!.caller.scores.create({ year: 2025, overallPercentile: 90 });
    expect(await r.caller.users.scoreSharing()).toEqual({ shareScoresWithProgram: false });
    expect((await director.caller.programReport.report()).scoreHistory).toEqual([]);
    await r.caller.users.setScoreSharing({ share: true });
    expect((await director.caller.programReport.report()).scoreHistory).toEqual([
      { pgyLevel: "1", years: [{ year: "2025", meanOverall: 62, residents: 1 }] },
    ]);
    expect((await r.caller.programReport.mine())!.shareScoresWithProgram).toBe(true);
    await r.caller.users.setScoreSharing({ share: false });
    expect((await director.caller.programReport.report()).scoreHistory).toEqual([]);
  });
});

describe("percentile within the class", () => {
  it("is given to a resident of a class of five, per category with enough classmates", async () => {
    const p = await residents[0]!.caller.programReport.classPercentiles();
    expect(p!.classSize).toBe(5);
    const pgy1 = residents.filter((r) => r.user.pgyLevel === "1");
    for (const c of p!.categories) {
      const mates = pgy1
        .slice(1)
        .map((r) => countsFromLog(r.user.id).byCat.get(c.category))
        .filter((x): x is CategoryCount => !!x && x.answered >= 5);
      expect(c.classmates).toBe(mates.length);
      if (mates.length < 4) expect(c.percentile).toBeNull();
    }
    expect(await residents[5]!.caller.programReport.classPercentiles()).toBeNull(); // a class of one
    expect(await outsider.caller.programReport.classPercentiles()).toBeNull();
  });
});

describe("REST", () => {
  it("answers JSON, or the roster and the heatmap as CSV, to the program's directors only", async () => {
    const app = await h.app();
    const get = (token: string, url: string, accept?: string) =>
      app.inject({
        method: "GET",
        url,
        headers: { "x-auth-token": token, ...(accept ? { accept } : {}) },
      });
    const url = `/api/programs/${programA}/report`;
    const json = await get(director.token, url);
    expect(json.statusCode).toBe(200);
    expect((json.json() as ProgramReport).residents).toHaveLength(residents.length);

    const roster = await get(director.token, url, "text/csv");
    expect(roster.statusCode).toBe(200);
    expect(roster.headers["content-type"]).toMatch(/^text\/csv/);
    const rows = parseCsv(roster.body);
    expect(rows[0]!.slice(0, 3)).toEqual(["username", "name", "pgy"]);
    expect(rows).toHaveLength(residents.length + 1);
    const first = (json.json() as ProgramReport).residents[0]!;
    expect(rows[1]!.slice(0, 3)).toEqual([first.username, first.displayName, first.pgyLevel]);

    const heat = await get(director.token, `${url}?table=heatmap`, "text/csv");
    const hrows = parseCsv(heat.body);
    expect(hrows[0]!.slice(0, 4)).toEqual([
      "username",
      "pgy",
      "Neuroscience accuracy_percent",
      "Neuroscience answered",
    ]);
    const cell = first.cells.Neuroscience;
    expect(hrows[1]!.slice(2, 4)).toEqual([
      cell?.accuracy == null ? "" : String(cell.accuracy),
      String(cell?.answered ?? 0),
    ]);

    expect((await get(residents[0]!.token, url)).statusCode).toBe(403);
    expect((await get(directorB.token, url)).statusCode).toBe(404);
    expect((await get(outsider.token, url, "text/csv")).statusCode).toBe(403);
    expect((await app.inject({ method: "GET", url })).statusCode).toBe(401);
  });
});
