/**
 * The kept answer figures (drizzle/0022: answer_totals, answer_category_totals, answer_quarters,
 * answer_window) held to a from-scratch computation over the whole log, for the tests of whatever
 * writes them: the triggers (stats-rollups.test.ts) and the seed's bulk backfill (synthetic.test.ts).
 */
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Db } from "../db/client";
import { queryRows } from "../db/raw";

/** Every kept table recomputed from the log, against what the triggers left (rows at 0 skipped). */
export async function expectRollupsMatchLog(db: Db) {
  const counted = sql`(
    select user_id, category, reviewed_at as at, is_correct from reviews where exam_id is null
    union all
    select a.user_id, a.category, a.answered_at, a.is_correct from exam_answers a join exams e on e.id = a.exam_id
    where e.status <> 'in_progress' and cardinality(a.selected) > 0 and a.answered_at is not null
  )`;
  const q = (s: string) =>
    sql`date_bin('15 minutes', ${sql.raw(s)}, timestamptz '2000-01-01 00:00:00+00')`;
  const pairs: [string, ReturnType<typeof sql>, ReturnType<typeof sql>][] = [
    [
      "answer_totals",
      sql`select user_id::text k, answered a, correct c from answer_totals where answered <> 0 or correct <> 0`,
      sql`select user_id::text k, count(*)::int a, count(*) filter (where is_correct)::int c from ${counted} x group by user_id`,
    ],
    [
      "answer_category_totals",
      sql`select user_id::text || '|' || category k, answered a, correct c from answer_category_totals where answered <> 0 or correct <> 0`,
      sql`select user_id::text || '|' || category k, count(*)::int a, count(*) filter (where is_correct)::int c from ${counted} x group by user_id, category`,
    ],
    [
      "answer_quarters",
      sql`select user_id::text || '|' || quarter::text k, answered a, correct c, sessions s from answer_quarters where answered <> 0 or correct <> 0 or sessions <> 0`,
      sql`select k, sum(a)::int a, sum(c)::int c, sum(s)::int s from (
            select user_id::text || '|' || ${q("at")}::text k, 1 a, is_correct::int c, 0 s from ${counted} x
            union all select user_id::text || '|' || ${q("started_at")}::text, 0, 0, 1 from study_sessions) y group by k`,
    ],
    [
      "answer_window",
      sql`select user_id::text k, answered a, correct c from answer_window where answered <> 0 or correct <> 0`,
      sql`select user_id::text k, count(*)::int a, count(*) filter (where is_correct)::int c from ${counted} x
          where at >= (select start_at from answer_window_start) group by user_id`,
    ],
  ];
  for (const [name, kept, fromLog] of pairs) {
    const sort = (rows: { k: string }[]) => rows.map((r) => JSON.stringify(r)).sort();
    expect(sort(await queryRows(db, kept)), name).toEqual(sort(await queryRows(db, fromLog)));
  }
}
