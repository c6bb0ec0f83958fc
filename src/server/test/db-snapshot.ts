import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { queryRows } from "../db/raw";

/** The tables that hold user data or sessions: a refused call must leave every one of them as it was. */
export const DATA_TABLES = [
  "users",
  "sessions",
  "login_attempts",
  "questions",
  "study_states",
  "reviews",
  "study_sessions",
  "prite_scores",
  "answer_keys",
  "exams",
  "exam_questions",
  "exam_answers",
  "mock_exams",
  "mock_exam_questions",
];

/** One digest per table of every row's content: equal before and after means nothing was written. */
export async function databaseSnapshot(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const table of DATA_TABLES) {
    const [row] = await queryRows<{ digest: string | null }>(
      db,
      sql.raw(
        `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${table} t`,
      ),
    );
    parts.push(`${table}:${row?.digest}`);
  }
  return parts.join(" ");
}
