import { eq, sql, type SQL } from "drizzle-orm";
import {
  accuracyPercent,
  classPercentiles,
  comparePgy,
  DAY_MS,
  flagsFor,
  heatmapCell,
  heatmapCsv,
  HEATMAP_MIN_ANSWERS,
  meanAccuracy,
  orderCategories,
  rosterCsv,
  type CategoryCount,
  type Flag,
  type HeatmapCell,
} from "../../../core/programs/report";
import { categoryLabel, ROLLUP_QUARTER_MS } from "../../../core/stats";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/raw";
import { programs, users } from "../../db/schema";
import { AppError } from "../../errors";
import { CohortCache, statsCachesOf } from "../stats/stats-caches";
import { PROGRAM_NOT_FOUND } from "./program-access";

/*
 * The program dashboard (issue 32 item 4, docs/product/program-dashboard.md, decisions 360-364): every
 * figure is read from what the triggers keep (answer_totals, answer_category_totals, answer_quarters),
 * the study states' due index, the assignments' kept progress and the exams' status — never from the
 * review log — and directors get figures only, never an answer.
 */

export interface ResidentFigures {
  userId: string;
  username: string;
  displayName: string;
  pgyLevel: string;
  joinedAt: string | null;
  /** The start of the last quarter hour with an answer or a study session, or null. */
  lastActive: string | null;
  answered7: number;
  answered30: number;
  answered: number;
  /** Percent correct of every counted answer (one decimal), null before any. */
  accuracy: number | null;
  /** Studied questions whose review date has passed. */
  dueBacklog: number;
  assignmentsDone: number;
  assignmentsTotal: number;
  flags: Flag[];
  /** Per category answered; accuracy null under five answers. */
  cells: Record<string, HeatmapCell>;
}

export interface CategoryMean {
  mean: number | null;
  members: number;
}

export interface ProgramReport {
  program: {
    id: string;
    name: string;
    institution: string;
    inactiveDays: number;
    /** A fraction, 0-1. */
    accuracyFlag: number;
  };
  generatedAt: string;
  categories: string[];
  /** Residents by PGY, then name. */
  residents: ResidentFigures[];
  classMeans: { pgyLevel: string; residents: number; means: Record<string, CategoryMean> }[];
  programMeans: Record<string, CategoryMean>;
  /** Every user sharing usage data (the rankings' cohort). */
  serverMeans: Record<string, CategoryMean>;
  /** Mean PRITE percentiles per class and year, from residents who share their scores. */
  scoreHistory: {
    pgyLevel: string;
    years: { year: string; meanOverall: number; residents: number }[];
  }[];
}

interface ProgramRow {
  id: string;
  name: string;
  institution: string;
  inactiveDays: number;
  accuracyFlag: number;
}

async function loadProgram(db: Db, programId: string): Promise<ProgramRow> {
  const [row] = await db
    .select({
      id: programs.id,
      name: programs.name,
      institution: programs.institution,
      inactiveDays: programs.inactiveDays,
      accuracyFlag: programs.accuracyFlag,
    })
    .from(programs)
    .where(eq(programs.id, programId));
  if (!row) throw new AppError("NOT_FOUND", PROGRAM_NOT_FOUND);
  return row;
}

const iso = (v: string | Date | null | undefined) => (v ? new Date(v).toISOString() : null);

/** Start of the quarter hour `days` days before `now`: the windows are sums of whole quarters. */
export function windowStart(now: Date, days: number): Date {
  const t = now.getTime() - days * DAY_MS;
  return new Date(Math.floor(t / ROLLUP_QUARTER_MS) * ROLLUP_QUARTER_MS);
}

/**
 * The figures of the program's residents (membership read from the users table now, so a resident who
 * left is gone at once), or of one of them with `userId`. The resident's "What my program sees" is
 * this same function: exactly the row their directors see.
 */
export async function residentFigures(
  db: Db,
  opts: { program: ProgramRow; now: Date; userId?: string },
): Promise<ResidentFigures[]> {
  return (await figuresAndCounts(db, opts)).rows;
}

async function figuresAndCounts(
  db: Db,
  opts: { program: ProgramRow; now: Date; userId?: string },
): Promise<{ rows: ResidentFigures[]; counts: Map<string, Map<string, CategoryCount>> }> {
  const p = opts.program.id;
  const one = opts.userId ? sql`and u.id = ${opts.userId}` : sql``;
  const members = (alias: string): SQL =>
    sql`join users u on u.id = ${sql.raw(alias)}.user_id and u.program_id = ${p} and u.program_role = 'resident' ${one}`;
  const now = opts.now.toISOString();
  const since7 = windowStart(opts.now, 7).toISOString();
  const since30 = windowStart(opts.now, 30).toISOString();

  const [people, totals, cats, recent, last, due, assignments] = await Promise.all([
    queryRows<{
      id: string;
      username: string;
      display_name: string;
      pgy_level: string;
      program_joined_at: string | Date | null;
    }>(
      db,
      sql`select u.id, u.username, u.display_name, u.pgy_level, u.program_joined_at from users u
          where u.program_id = ${p} and u.program_role = 'resident' ${one}`,
    ),
    queryRows<{ user_id: string; answered: number; correct: number }>(
      db,
      sql`select t.user_id, t.answered, t.correct from answer_totals t ${members("t")}`,
    ),
    queryRows<{ user_id: string; category: string; answered: number; correct: number }>(
      db,
      sql`select c.user_id, c.category, c.answered, c.correct from answer_category_totals c ${members("c")}
          where c.answered > 0`,
    ),
    queryRows<{ user_id: string; a7: number; a30: number }>(
      db,
      sql`select q.user_id,
                 coalesce(sum(q.answered) filter (where q.quarter >= ${since7}::timestamptz), 0)::int a7,
                 coalesce(sum(q.answered), 0)::int a30
          from answer_quarters q ${members("q")}
          where q.quarter >= ${since30}::timestamptz
          group by q.user_id`,
    ),
    queryRows<{ id: string; last: string | Date | null }>(
      db,
      sql`select u.id, (select q.quarter from answer_quarters q
                        where q.user_id = u.id and (q.answered > 0 or q.sessions > 0)
                        order by q.quarter desc limit 1) as last
          from users u where u.program_id = ${p} and u.program_role = 'resident' ${one}`,
    ),
    queryRows<{ user_id: string; n: number }>(
      db,
      // The due list's reviews (leeches are out of it): one range of its index per resident.
      sql`select s.user_id, count(*)::int n from study_states s ${members("s")}
          where s.available and not s.leech and (s.due_at is null or s.due_at <= ${now}::timestamptz)
          group by s.user_id`,
    ),
    // Per resident: the assignments aimed at them (the program or their class) and how many are done.
    queryRows<{ id: string; total: number; done: number }>(
      db,
      sql`select u.id, count(a.id)::int total,
                 count(a.id) filter (where
                   (a.kind = 'study' and exists (select 1 from program_assignment_progress g
                      where g.assignment_id = a.id and g.user_id = u.id and g.completed_at is not null))
                   or (a.kind = 'exam' and exists (select 1 from exams e
                      where e.mock_exam_id = a.mock_exam_id and e.user_id = u.id
                        and e.status in ('submitted', 'expired'))))::int done
          from users u
          join program_assignments a on a.program_id = u.program_id
            and (a.pgy_level is null or a.pgy_level = u.pgy_level)
          where u.program_id = ${p} and u.program_role = 'resident' ${one}
          group by u.id`,
    ),
  ]);

  const byUser = <T extends { user_id: string }>(rows: T[]) =>
    new Map(rows.map((r) => [r.user_id, r]));
  const totalOf = byUser(totals);
  const recentOf = byUser(recent);
  const dueOf = byUser(due);
  const lastOf = new Map(last.map((r) => [r.id, r.last]));
  const assignedOf = new Map(assignments.map((r) => [r.id, r]));
  const cellsOf = new Map<string, Map<string, CategoryCount>>();
  for (const c of cats) {
    let m = cellsOf.get(c.user_id);
    if (!m) cellsOf.set(c.user_id, (m = new Map()));
    const label = categoryLabel(c.category);
    const prev = m.get(label) ?? { answered: 0, correct: 0 };
    m.set(label, {
      answered: prev.answered + Number(c.answered),
      correct: prev.correct + Number(c.correct),
    });
  }

  const rows = people
    .map((u): ResidentFigures => {
      const t = totalOf.get(u.id);
      const answered = Number(t?.answered ?? 0);
      const correct = Number(t?.correct ?? 0);
      const lastActive = lastOf.get(u.id) ? new Date(lastOf.get(u.id)!) : null;
      const joinedAt = u.program_joined_at ? new Date(u.program_joined_at) : null;
      const cells: Record<string, HeatmapCell> = {};
      for (const [category, c] of cellsOf.get(u.id) ?? []) {
        cells[category] = heatmapCell(c.answered, c.correct);
      }
      return {
        userId: u.id,
        username: u.username,
        displayName: u.display_name,
        pgyLevel: u.pgy_level,
        joinedAt: iso(joinedAt),
        lastActive: iso(lastActive),
        answered7: Number(recentOf.get(u.id)?.a7 ?? 0),
        answered30: Number(recentOf.get(u.id)?.a30 ?? 0),
        answered,
        accuracy: accuracyPercent(correct, answered),
        dueBacklog: Number(dueOf.get(u.id)?.n ?? 0),
        assignmentsDone: Number(assignedOf.get(u.id)?.done ?? 0),
        assignmentsTotal: Number(assignedOf.get(u.id)?.total ?? 0),
        flags: flagsFor({
          lastActive,
          joinedAt,
          answered,
          correct,
          now: opts.now,
          inactiveDays: opts.program.inactiveDays,
          accuracyFlag: opts.program.accuracyFlag,
        }),
        cells,
      };
    })
    .sort(
      (a, b) =>
        comparePgy(a.pgyLevel, b.pgyLevel) ||
        a.username.localeCompare(b.username) ||
        a.userId.localeCompare(b.userId),
    );
  return { rows, counts: cellsOf };
}

// ---------------------------------------------------------------------------------------------------
// The server's mean per category: every user sharing usage data (the rankings' cohort, decision 025),
// each with at least five answers in the category, the mean of their accuracies. Other users' figures:
// kept between requests where the server keeps the rankings' cohort (decision 260), for a minute at
// least: one answer moves a mean over thousands of users by nothing a director could read, and at the
// specialty's size its read costs 80 ms of the database every time (decision 432).

/** The least the server's means are kept for, when the server keeps the cohort at all. */
export const SERVER_MEANS_MIN_AGE_MS = 60_000;

const serverMeanCaches = new WeakMap<Db, CohortCache<Record<string, CategoryMean>>>();

async function readServerMeans(db: Db): Promise<Record<string, CategoryMean>> {
  const rows = await queryRows<{ category: string; mean: number | null; members: number }>(
    db,
    sql`select c.category, avg(c.correct::float8 / c.answered) mean, count(*)::int members
        from answer_category_totals c join users u on u.id = c.user_id
        where u.share_usage_data and c.answered >= ${HEATMAP_MIN_ANSWERS}
        group by c.category`,
  );
  // Stored categories fold into their labels ('' → Uncategorized): combine those by member count.
  const sums = new Map<string, { sum: number; members: number }>();
  for (const r of rows) {
    const label = categoryLabel(r.category);
    const s = sums.get(label) ?? { sum: 0, members: 0 };
    s.sum += Number(r.mean) * Number(r.members);
    s.members += Number(r.members);
    sums.set(label, s);
  }
  const out: Record<string, CategoryMean> = {};
  for (const [label, s] of sums) {
    out[label] = { mean: Math.round((s.sum / s.members) * 1000) / 10, members: s.members };
  }
  return out;
}

export async function serverCategoryMeans(
  db: Db,
  now: Date,
): Promise<Record<string, CategoryMean>> {
  const cohort = statsCachesOf(db)?.cohort;
  if (!cohort) return readServerMeans(db);
  let cache = serverMeanCaches.get(db);
  if (!cache) {
    cache = new CohortCache(Math.max(cohort.maxAgeMs, SERVER_MEANS_MIN_AGE_MS), cohort.opts);
    serverMeanCaches.set(db, cache);
  }
  return cache.get(now.getTime(), () => readServerMeans(db));
}

/** Mean PRITE overall percentile per class and year, from the residents who share their scores. */
async function scoreHistory(db: Db, programId: string): Promise<ProgramReport["scoreHistory"]> {
  const rows = await queryRows<{
    pgy_level: string;
    year: string;
    mean: number;
    residents: number;
  }>(
    db,
    sql`select u.pgy_level, s.year, avg(s.overall_percentile)::float8 mean,
               count(distinct s.user_id)::int residents
        from prite_scores s
        join users u on u.id = s.user_id and u.program_id = ${programId}
          and u.program_role = 'resident' and u.share_scores_with_program
        group by u.pgy_level, s.year`,
  );
  const classes = new Map<string, { year: string; meanOverall: number; residents: number }[]>();
  for (const r of rows) {
    const list = classes.get(r.pgy_level) ?? [];
    list.push({
      year: r.year,
      meanOverall: Math.round(Number(r.mean) * 10) / 10,
      residents: Number(r.residents),
    });
    classes.set(r.pgy_level, list);
  }
  return [...classes]
    .sort(([a], [b]) => comparePgy(a, b))
    .map(([pgyLevel, years]) => ({
      pgyLevel,
      years: years.sort((a, b) => a.year.localeCompare(b.year)),
    }));
}

/** The whole dashboard of a program, for its directors. */
export async function programReport(
  db: Db,
  opts: { programId: string; now: Date },
): Promise<ProgramReport> {
  const program = await loadProgram(db, opts.programId);
  const [{ rows: residents, counts }, serverMeans, history] = await Promise.all([
    figuresAndCounts(db, { program, now: opts.now }),
    serverCategoryMeans(db, opts.now),
    scoreHistory(db, program.id),
  ]);
  const categories = orderCategories(residents.flatMap((r) => Object.keys(r.cells)));
  const meansOf = (group: ResidentFigures[]) => {
    const out: Record<string, CategoryMean> = {};
    for (const c of categories)
      out[c] = meanAccuracy(group.map((r) => counts.get(r.userId)?.get(c)));
    return out;
  };
  const classes = new Map<string, ResidentFigures[]>();
  for (const r of residents) classes.set(r.pgyLevel, [...(classes.get(r.pgyLevel) ?? []), r]);
  return {
    program,
    generatedAt: opts.now.toISOString(),
    categories,
    residents,
    classMeans: [...classes].map(([pgyLevel, group]) => ({
      pgyLevel,
      residents: group.length,
      means: meansOf(group),
    })),
    programMeans: meansOf(residents),
    serverMeans,
    scoreHistory: history,
  };
}

/** The report's tables as CSV (decision 362): `roster` or `heatmap`. */
export function reportCsv(report: ProgramReport, table: "roster" | "heatmap"): string {
  return table === "roster"
    ? rosterCsv(report.residents)
    : heatmapCsv(report.categories, report.residents);
}

export interface MyProgramView {
  program: ProgramReport["program"];
  role: "director" | "resident";
  /** Exactly the row the directors see; null for a director (they are not on the roster). */
  row: ResidentFigures | null;
  shareScoresWithProgram: boolean;
}

/** "What my program sees": the caller's own row, computed by the directors' function. */
export async function myProgramView(
  db: Db,
  opts: { userId: string; now: Date },
): Promise<MyProgramView | null> {
  const [me] = await db
    .select({
      programId: users.programId,
      role: users.programRole,
      share: users.shareScoresWithProgram,
    })
    .from(users)
    .where(eq(users.id, opts.userId));
  if (!me?.programId || (me.role !== "director" && me.role !== "resident")) return null;
  const program = await loadProgram(db, me.programId);
  const [row] =
    me.role === "resident"
      ? await residentFigures(db, { program, now: opts.now, userId: opts.userId })
      : [];
  return { program, role: me.role, row: row ?? null, shareScoresWithProgram: me.share };
}

/**
 * The caller's percentile per category within their class (same PGY level in the program), or null
 * when they are not a resident of a program or the class has fewer than five residents.
 */
export async function myClassPercentiles(
  db: Db,
  opts: { userId: string },
): Promise<{
  pgyLevel: string;
  classSize: number;
  categories: { category: string; percentile: number | null; classmates: number }[];
} | null> {
  const [me] = await db
    .select({ programId: users.programId, role: users.programRole, pgyLevel: users.pgyLevel })
    .from(users)
    .where(eq(users.id, opts.userId));
  if (!me?.programId || me.role !== "resident") return null;
  const rows = await queryRows<{
    id: string;
    category: string | null;
    answered: number | null;
    correct: number | null;
  }>(
    db,
    sql`select u.id, c.category, c.answered, c.correct from users u
        left join answer_category_totals c on c.user_id = u.id and c.answered > 0
        where u.program_id = ${me.programId} and u.program_role = 'resident' and u.pgy_level = ${me.pgyLevel}`,
  );
  const byUser = new Map<string, Map<string, CategoryCount>>();
  for (const r of rows) {
    let m = byUser.get(r.id);
    if (!m) byUser.set(r.id, (m = new Map()));
    if (r.category === null) continue;
    const label = categoryLabel(r.category);
    const prev = m.get(label) ?? { answered: 0, correct: 0 };
    m.set(label, {
      answered: prev.answered + Number(r.answered),
      correct: prev.correct + Number(r.correct),
    });
  }
  const viewer = byUser.get(opts.userId) ?? new Map<string, CategoryCount>();
  const classmates = [...byUser].filter(([id]) => id !== opts.userId).map(([, m]) => m);
  const categories = classPercentiles(viewer, classmates, orderCategories(viewer.keys()));
  if (!categories) return null;
  return { pgyLevel: me.pgyLevel, classSize: classmates.length + 1, categories };
}

/** Directors set the dashboard's flags: inactive days, and the accuracy (a fraction) below which to flag. */
export async function setThresholds(
  db: Db,
  opts: { programId: string; inactiveDays: number; accuracyFlag: number },
): Promise<ProgramReport["program"]> {
  const [row] = await db
    .update(programs)
    .set({ inactiveDays: opts.inactiveDays, accuracyFlag: opts.accuracyFlag })
    .where(eq(programs.id, opts.programId))
    .returning({
      id: programs.id,
      name: programs.name,
      institution: programs.institution,
      inactiveDays: programs.inactiveDays,
      accuracyFlag: programs.accuracyFlag,
    });
  if (!row) throw new AppError("NOT_FOUND", PROGRAM_NOT_FOUND);
  return row;
}

/** Whether the user's PRITE scores reach their program's dashboard (off by default). */
export async function scoreSharing(
  db: Db,
  userId: string,
): Promise<{ shareScoresWithProgram: boolean }> {
  const [row] = await db
    .select({ share: users.shareScoresWithProgram })
    .from(users)
    .where(eq(users.id, userId));
  return { shareScoresWithProgram: row?.share ?? false };
}

export async function setScoreSharing(
  db: Db,
  userId: string,
  share: boolean,
): Promise<{ shareScoresWithProgram: boolean }> {
  await db.update(users).set({ shareScoresWithProgram: share }).where(eq(users.id, userId));
  return { shareScoresWithProgram: share };
}
