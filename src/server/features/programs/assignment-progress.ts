/**
 * A study set's progress, kept as answers arrive (issue 32, decision 357). Called by the one writer
 * of study states (study-writer.service.ts) for residents of a program only: a user without a program
 * costs nothing here, the writer having read their program from the row it reads anyway.
 */
import { sql } from "drizzle-orm";
import { UNCATEGORIZED } from "../../../core/constants";
import type { Db } from "../../db/client";

/** What the study writer knows of the answering user from the row it already read. */
export interface WriterProgram {
  programId: string;
  pgyLevel: string;
}

/**
 * Counts one answer given in Study towards every open study set of the resident's program that
 * targets them, was given before the answer and covers its category; marks a set completed when the
 * count is reached. One statement; no row at all when no set matches.
 */
export async function countStudySetAnswer(
  tx: Db,
  opts: {
    userId: string;
    program: WriterProgram;
    category: string;
    isCorrect: boolean;
    at: Date;
  },
): Promise<void> {
  const { userId, program, category, at } = opts;
  const correct = opts.isCorrect ? 1 : 0;
  const atIso = at.toISOString();
  await tx.execute(sql`
    insert into program_assignment_progress
      (assignment_id, user_id, answered, correct, started_at, completed_at)
    select a.id, ${userId}::uuid, 1, ${correct}::int, ${atIso}::timestamptz,
      case when a.question_count <= 1 then ${atIso}::timestamptz end
    from program_assignments a
    where a.program_id = ${program.programId}::uuid
      and a.kind = 'study'
      and a.closed_at is null
      and a.created_at <= ${atIso}::timestamptz
      and (a.pgy_level is null or a.pgy_level = ${program.pgyLevel})
      and (cardinality(a.categories) = 0 or ${category} = any(a.categories)
           or (${category} = '' and ${UNCATEGORIZED} = any(a.categories)))
    on conflict (assignment_id, user_id) do update set
      answered = program_assignment_progress.answered + 1,
      correct = program_assignment_progress.correct + excluded.correct,
      completed_at = coalesce(
        program_assignment_progress.completed_at,
        case when program_assignment_progress.answered + 1 >= (
          select question_count from program_assignments where id = excluded.assignment_id
        ) then excluded.started_at end)`);
}
