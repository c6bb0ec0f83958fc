-- Issue 36, decision 381: questions with an open wrong-answer report carry a notice in their JSON (the
-- due page builds it in SQL). Opening or closing such a report moves the versions of everyone who may
-- see the question (its creator, everyone for a public one, its program's members), as an edit of the
-- question does (0023, 0032), so a kept due page ends and the notice appears or goes at once.
CREATE FUNCTION question_reports_notice_changed() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM changed_rows WHERE kind = 'wrong_answer') THEN
    RETURN NULL;
  END IF;
  PERFORM summary_version_bump(ARRAY(
    SELECT q.creator_id FROM questions q
      WHERE q.id IN (SELECT question_id FROM changed_rows WHERE kind = 'wrong_answer')
    UNION SELECT '00000000-0000-0000-0000-000000000000'::uuid
      WHERE EXISTS (SELECT 1 FROM questions q
        WHERE q.id IN (SELECT question_id FROM changed_rows WHERE kind = 'wrong_answer') AND q.is_public)
    UNION SELECT unnest(program_members_of(ARRAY(
      SELECT DISTINCT q.program_id FROM questions q
        WHERE q.id IN (SELECT question_id FROM changed_rows WHERE kind = 'wrong_answer')
          AND q.program_id IS NOT NULL AND NOT q.is_public)))
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER question_reports_notice_insert AFTER INSERT ON question_reports
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION question_reports_notice_changed();
--> statement-breakpoint
CREATE TRIGGER question_reports_notice_update AFTER UPDATE ON question_reports
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION question_reports_notice_changed();
--> statement-breakpoint
CREATE TRIGGER question_reports_notice_delete AFTER DELETE ON question_reports
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION question_reports_notice_changed();
