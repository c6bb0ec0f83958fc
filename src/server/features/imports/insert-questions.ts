/**
 * The commit's creates as one statement per chunk whose rows travel as a single JSON parameter
 * (jsonb_to_recordset), not as drizzle's multi-row VALUES: building and binding 20 parameters per row
 * cost 0.17 s of server CPU per 1,000 rows, more than the database's own work on PostgreSQL
 * (docs/decisions/411-import-commit-one-parameter.md). Ids are drawn here, so no reliance on the
 * order of RETURNING.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { NewQuestionRow } from "../../db/schema";

/**
 * A lone surrogate (a JSON body may carry "\ud800") becomes U+FFFD, as a text parameter's UTF-8
 * encoding makes it on every other write path: jsonb refuses the escape that JSON.stringify writes.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (_key: string, value: unknown) =>
  typeof value === "string" ? value.replace(LONE_SURROGATE, "\uFFFD") : value;

/** What the commit writes of a new question; every other column takes its default. */
export type ImportedQuestionRow = Required<
  Pick<
    NewQuestionRow,
    | "creatorId"
    | "text"
    | "back"
    | "options"
    | "correctAnswer"
    | "correctAnswers"
    | "numCorrectAnswers"
    | "questionType"
    | "category"
    | "part"
    | "year"
    | "number"
    | "explanation"
    | "source"
    | "isPublic"
    | "programId"
    | "shareStatement"
    | "createdAt"
    | "updatedAt"
  >
>;

/** Inserts the rows in one statement and answers their new ids, in the rows' order. */
export async function insertImportedQuestions(
  tx: Db,
  rows: readonly ImportedQuestionRow[],
): Promise<string[]> {
  const ids = rows.map(() => randomUUID());
  if (rows.length === 0) return ids;
  const json = JSON.stringify(
    rows.map((r, i) => ({
      id: ids[i],
      creator_id: r.creatorId,
      text: r.text,
      back: r.back,
      options: r.options,
      correct_answer: r.correctAnswer,
      correct_answers: r.correctAnswers,
      num_correct_answers: r.numCorrectAnswers,
      question_type: r.questionType,
      category: r.category,
      part: r.part,
      year: r.year,
      number: r.number,
      explanation: r.explanation,
      source: r.source,
      is_public: r.isPublic,
      program_id: r.programId,
      share_statement: r.shareStatement,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    })),
    wellFormed,
  );
  await tx.execute(sql`
    insert into questions (id, creator_id, text, back, options, correct_answer, correct_answers,
      num_correct_answers, question_type, category, part, year, number, explanation, source,
      is_public, program_id, share_statement, created_at, updated_at)
    select id, creator_id, text, back, options, correct_answer, correct_answers,
      num_correct_answers, question_type, category, part, year, number, explanation, source,
      is_public, program_id, share_statement, created_at, updated_at
    from jsonb_to_recordset(${json}::jsonb) as v(id uuid, creator_id uuid, text text, back text,
      options jsonb, correct_answer text, correct_answers text[], num_correct_answers int,
      question_type text, category text, part text, year int, number int, explanation text,
      source text, is_public boolean, program_id uuid, share_statement text,
      created_at timestamptz, updated_at timestamptz)`);
  return ids;
}
