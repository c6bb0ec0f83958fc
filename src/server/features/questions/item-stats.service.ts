/**
 * Item statistics (issue 36 item 5, docs/product/item-statistics.md, decisions 390-393): read from
 * what drizzle's item_stats triggers keep as answers arrive — never a scan of the review log per
 * request — for the question's owner, its program's directors (program questions) and the server's
 * admins (public questions). `itemSumsFromLog` is the same figures computed from the log, the tests'
 * oracle.
 */
import { and, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { UNCATEGORIZED } from "../../../core/constants";
import {
  EMPTY_SUMS,
  ITEM_STATS_MIN_ANSWERED,
  ITEM_STATS_MIN_EXAMS,
  itemStatsView,
  type ItemStatsBrief,
  type ItemStatsFilter,
  type ItemStatsView,
  type ItemSums,
} from "../../../core/item-stats";
import { isUuid } from "../../../core/schemas";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/raw";
import {
  leechMarks,
  questionItemStats,
  questionOptionPicks,
  questions,
  users,
} from "../../db/schema";
import { AppError, notFound } from "../../errors";
import { QUESTION_NOT_FOUND } from "./question-access";
import { loadQuestionsJson } from "./question-access";
import { viewerDirectsSql, viewerProgramSql, visibleTo } from "./question-json";
import { QUESTION_PAGE, searchTerms, type QuestionPage } from "./questions.types";

export const ITEM_STATS_FORBIDDEN =
  "Only the question's owner, its program's directors and admins can see its statistics";

/**
 * Whose statistics the viewer may see (decision 390): their own questions; the questions of the
 * program they direct that are not public; every public question when they are an admin. The
 * viewer's role and program are read in the same statement, as visibleTo does (decision 350).
 */
export function statsVisibleTo(viewerId: string): SQL {
  return or(
    eq(questions.creatorId, viewerId),
    sql`(${questions.isPublic} and coalesce((select ${users.isAdmin} from ${users} where ${users.id} = ${viewerId}), false))`,
    sql`(not ${questions.isPublic} and ${questions.programId} = ${viewerProgramSql(viewerId)}
      and coalesce(${viewerDirectsSql(viewerId)}, false))`,
  )!;
}

/** The kept sums of the given questions (questions never answered have none: EMPTY_SUMS). */
export async function keptItemSums(db: Db, ids: string[]): Promise<Map<string, ItemSums>> {
  const out = new Map<string, ItemSums>();
  if (ids.length === 0) return out;
  const rows = await db
    .select()
    .from(questionItemStats)
    .where(inArray(questionItemStats.questionId, ids));
  for (const r of rows) {
    out.set(r.questionId, {
      answered: r.answered,
      correct: r.correct,
      timeMsSum: r.timeMsSum,
      picks: {},
      examN: r.examN,
      examSx: r.examSx,
      examSy: r.examSy,
      examSyy: r.examSyy,
      examSxy: r.examSxy,
    });
  }
  const picks = await db
    .select()
    .from(questionOptionPicks)
    .where(inArray(questionOptionPicks.questionId, ids));
  for (const p of picks) {
    if (p.picks === 0) continue;
    const sums = out.get(p.questionId) ?? { ...EMPTY_SUMS, picks: {} };
    sums.picks[p.option] = p.picks;
    out.set(p.questionId, sums);
  }
  return out;
}

/**
 * The same sums computed from the whole log (reviews, exam answers, exams): the oracle the kept
 * figures are tested against, and what a rebuild would write. Reads every answer of the questions.
 */
export async function itemSumsFromLog(db: Db, ids: string[]): Promise<Map<string, ItemSums>> {
  const out = new Map<string, ItemSums>();
  if (ids.length === 0) return out;
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const counted = sql`(
    select question_id, is_correct, time_spent_ms, selected from reviews
    where exam_id is null and question_id in (${list})
    union all
    select a.question_id, a.is_correct, a.time_spent_ms, a.selected
    from exam_answers a join exams e on e.id = a.exam_id
    where e.status <> 'in_progress' and cardinality(a.selected) > 0 and a.answered_at is not null
      and a.question_id in (${list})
  )`;
  const get = (id: string) => {
    let s = out.get(id);
    if (!s) out.set(id, (s = { ...EMPTY_SUMS, picks: {} }));
    return s;
  };
  const answers = await queryRows<{ q: string; a: number; c: number; t: string | number }>(
    db,
    sql`select question_id::text q, count(*)::int a, count(*) filter (where is_correct)::int c,
      coalesce(sum(time_spent_ms), 0)::bigint t from ${counted} x group by question_id`,
  );
  for (const r of answers)
    Object.assign(get(r.q), { answered: r.a, correct: r.c, timeMsSum: Number(r.t) });
  const picks = await queryRows<{ q: string; o: string; n: number }>(
    db,
    sql`select question_id::text q, o, count(*)::int n from ${counted} x
      cross join lateral (select distinct upper(e) o from unnest(x.selected) e where e <> '') l
      group by question_id, o`,
  );
  for (const r of picks) get(r.q).picks[r.o] = r.n;
  // Pairs one by one, summed here in the oracle's own way.
  const pairs = await queryRows<{ q: string; x: number; c: number; n: number }>(
    db,
    sql`select eq.question_id::text q,
        coalesce(a.is_correct and cardinality(a.selected) > 0, false)::int x,
        e.correct_count c, e.question_count n
      from exams e join exam_questions eq on eq.exam_id = e.id
      left join exam_answers a on a.exam_id = e.id and a.question_id = eq.question_id
      where e.status <> 'in_progress' and e.correct_count is not null and e.question_count >= 2
        and eq.question_id in (${list})`,
  );
  for (const p of pairs) {
    const s = get(p.q);
    const y = (p.c - p.x) / (p.n - 1);
    s.examN += 1;
    s.examSx += p.x;
    s.examSy += y;
    s.examSyy += y * y;
    s.examSxy += p.x * y;
  }
  return out;
}

/** Residents who found each question a leech (issue 34), read per question from its index. */
async function leechCounts(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ questionId: leechMarks.questionId, n: count() })
    .from(leechMarks)
    .where(inArray(leechMarks.questionId, ids))
    .groupBy(leechMarks.questionId);
  return new Map(rows.map((r) => [r.questionId, r.n]));
}

export interface ItemStatsJson extends ItemStatsView {
  questionId: string;
}

/**
 * questions.itemStats / GET /api/questions/:id/stats. A question the viewer cannot see answers as
 * missing (404); one they see but whose statistics are not theirs to see is refused (403).
 */
export async function getItemStats(
  db: Db,
  viewerId: string,
  questionId: string,
): Promise<ItemStatsJson> {
  if (!isUuid(questionId)) throw notFound(QUESTION_NOT_FOUND);
  const [row] = await db
    .select({ options: questions.options, mayView: sql<boolean>`${statsVisibleTo(viewerId)}` })
    .from(questions)
    .where(and(eq(questions.id, questionId), visibleTo(viewerId)));
  if (!row) throw notFound(QUESTION_NOT_FOUND);
  if (!row.mayView) throw new AppError("FORBIDDEN", ITEM_STATS_FORBIDDEN);
  const sums = (await keptItemSums(db, [questionId])).get(questionId) ?? EMPTY_SUMS;
  const leeches = (await leechCounts(db, [questionId])).get(questionId) ?? 0;
  return { questionId, ...itemStatsView(sums, Object.keys(row.options ?? {}), leeches) };
}

/** r from the kept sums in SQL, null where the core's pointBiserialFromSums answers null. */
const R_SQL = sql`(case when s.exam_n >= ${ITEM_STATS_MIN_EXAMS}
    and s.exam_n * s.exam_sx - s.exam_sx * s.exam_sx > 0
    and s.exam_n * s.exam_syy - s.exam_sy * s.exam_sy > 1e-9 * greatest(1, s.exam_n * s.exam_n)
  then (s.exam_n * s.exam_sxy - s.exam_sx * s.exam_sy)
    / sqrt((s.exam_n * s.exam_sx - s.exam_sx * s.exam_sx)::float8
      * (s.exam_n * s.exam_syy - s.exam_sy * s.exam_sy)) end)`;

export interface StatsSearchInput {
  stats: ItemStatsFilter;
  text?: string;
  part?: string;
  category?: string;
  type?: "multipleChoice" | "flashcard";
  source?: string;
  visibility?: "all" | "mine" | "private" | "program" | "public";
  cursor?: number;
  pageSize?: number;
}

/**
 * Browse's statistics filters (decision 393), over the questions whose statistics the viewer may see:
 * "most missed" (answered at least ITEM_STATS_MIN_ANSWERED times, lowest share right first),
 * "negative discrimination" (r < 0 from ITEM_STATS_MIN_EXAMS attempts on, most negative first) and
 * "reported" (open reports, most first). The other Browse filters narrow them as they narrow a search.
 */
export async function searchByItemStats(
  db: Db,
  viewerId: string,
  input: StatsSearchInput,
): Promise<QuestionPage> {
  const page = input.cursor ?? 1;
  const pageSize = input.pageSize ?? QUESTION_PAGE.DEFAULT;
  const offset = (page - 1) * pageSize;
  const filters: SQL[] = [statsVisibleTo(viewerId)];
  if (input.visibility === "mine") filters.push(sql`questions.creator_id = ${viewerId}`);
  else if (input.visibility === "private") {
    filters.push(
      sql`questions.creator_id = ${viewerId} and not questions.is_public and questions.program_id is null`,
    );
  } else if (input.visibility === "program") {
    filters.push(sql`not questions.is_public and questions.program_id is not null`);
  } else if (input.visibility === "public") filters.push(sql`questions.is_public`);
  if (input.part) filters.push(sql`questions.part = ${input.part}`);
  if (input.category === UNCATEGORIZED) {
    filters.push(sql`(questions.category = '' or questions.category = ${UNCATEGORIZED})`);
  } else if (input.category !== undefined) {
    filters.push(sql`questions.category = ${input.category}`);
  }
  if (input.source !== undefined) filters.push(sql`questions.source = ${input.source}`);
  if (input.type === "flashcard") filters.push(sql`questions.question_type = 'flashcard'`);
  else if (input.type === "multipleChoice")
    filters.push(sql`questions.question_type <> 'flashcard'`);
  for (const term of searchTerms(input.text ?? "")) {
    filters.push(sql`strpos(questions.search_text, lower(${term})) > 0`);
  }
  const share = sql`(s.correct::float8 / nullif(s.answered, 0))`;
  // "reported" names the reports' table (issue 36 item 2) by its SQL name only.
  const openReports = sql`(select count(*) from question_reports r
    where r.question_id = questions.id and r.status = 'open')`;
  const [which, order] =
    input.stats === "mostMissed"
      ? [
          sql`s.answered >= ${ITEM_STATS_MIN_ANSWERED}`,
          sql`${share} asc, s.answered desc, questions.id`,
        ]
      : input.stats === "negativeDiscrimination"
        ? [sql`${R_SQL} < 0`, sql`${R_SQL} asc, questions.id`]
        : [
            sql`${openReports} > 0`,
            sql`${openReports} desc, questions.created_at desc, questions.id`,
          ];
  const where = sql.join(filters, sql` and `);
  const rows = await queryRows<{
    id: string | null;
    total: number;
    answered: number;
    share: number | null;
    r: number | null;
    n: number;
  }>(
    db,
    sql`with m as (
        select questions.id, coalesce(s.answered, 0) answered, ${share} share, ${R_SQL} r,
          coalesce(s.exam_n, 0) n, row_number() over (order by ${order}) ord
        from questions ${input.stats === "reported" ? sql`left join` : sql`join`} question_item_stats s
          on s.question_id = questions.id
        where ${which} and (${where})
      )
      select p.id, (select count(*) from m)::int total, p.answered, p.share, p.r, p.n
      from (select 1) one left join lateral (
        select * from m order by ord limit ${pageSize} offset ${offset}) p on true`,
  );
  const total = rows[0]?.total ?? 0;
  const found = rows.filter((r): r is typeof r & { id: string } => r.id !== null);
  const stats: Record<string, ItemStatsBrief> = {};
  for (const r of found) {
    stats[r.id] = {
      answered: r.answered,
      shareCorrect: r.share,
      discrimination: r.r,
      examAttempts: r.n,
    };
  }
  return {
    items: await loadQuestionsJson(
      db,
      viewerId,
      found.map((r) => r.id),
    ),
    total,
    totalCapped: false,
    page,
    pageSize,
    nextCursor: offset + pageSize < total ? page + 1 : null,
    stats,
  };
}
