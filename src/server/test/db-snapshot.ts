import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { queryRows } from "../db/raw";

/** The tables that hold user data or sessions: a refused call must leave every one of them as it was. */
export const DATA_TABLES = [
  "users",
  "sessions",
  "login_attempts",
  "password_reset_tokens",
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

/**
 * A session's last use moves as its own requests are checked (every few minutes): being used is not
 * something a call wrote.
 */
const ROWS: Record<string, string> = {
  sessions: "(select id, user_id, expires_at, created_at, user_agent from sessions)",
};

/** One digest per table of every row's content: equal before and after means nothing was written. */
export async function databaseSnapshot(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const table of DATA_TABLES) {
    const [row] = await queryRows<{ digest: string | null }>(
      db,
      sql.raw(
        `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${ROWS[table] ?? table} t`,
      ),
    );
    parts.push(`${table}:${row?.digest}`);
  }
  return parts.join(" ");
}
