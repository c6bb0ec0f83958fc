-- Issue 36 item 4, decision 385: every change of a question's tracked fields, by whatever path
-- (edit, bulk merge, import merge, answer key, saved explanation, reservation, restore), is kept as a
-- version. The editing paths name the user in the transaction-local setting prite.editor (and may set
-- prite.edited_at, prite.restored_from); a path that names nobody records null ("system").
-- Inserts write nothing: a question never changed has no rows, and its first change keeps the state
-- before it as version 1, attributed to the creator at the time of that state (updated_at).
CREATE OR REPLACE FUNCTION question_snapshot(q questions) RETURNS jsonb
LANGUAGE sql
STABLE
AS $$
  SELECT jsonb_build_object(
    'text', q.text,
    'back', q.back,
    'options', q.options,
    'correctAnswer', q.correct_answer,
    'correctAnswers', to_jsonb(q.correct_answers),
    'numCorrectAnswers', q.num_correct_answers,
    'questionType', q.question_type,
    'instructions', q.instructions,
    'explanation', q.explanation,
    'generatedExplanation', q.generated_explanation,
    'category', q.category,
    'part', q.part,
    'year', q.year,
    'number', q.number,
    'source', q.source,
    'isPublic', q.is_public,
    'programId', q.program_id,
    'shareStatement', q.share_statement,
    'reserved', q.reserved
  )
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION question_versions_record() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  editor uuid := nullif(current_setting('prite.editor', true), '')::uuid;
  restored int := nullif(current_setting('prite.restored_from', true), '')::int;
  at timestamptz := coalesce(
    nullif(current_setting('prite.edited_at', true), '')::timestamptz,
    CASE WHEN NEW.updated_at IS DISTINCT FROM OLD.updated_at THEN NEW.updated_at ELSE now() END
  );
  last int;
BEGIN
  SELECT max(version) INTO last FROM question_versions WHERE question_id = NEW.id;
  IF last IS NULL THEN
    INSERT INTO question_versions (question_id, version, snapshot, editor_id, created_at)
    VALUES (OLD.id, 1, question_snapshot(OLD), OLD.creator_id, OLD.updated_at);
    last := 1;
  END IF;
  INSERT INTO question_versions (question_id, version, snapshot, editor_id, restored_from, created_at)
  VALUES (NEW.id, last + 1, question_snapshot(NEW), editor, restored, at);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Per row, and only when a tracked field really changed: touching updated_at alone, or a statement that
-- writes the same values back, records nothing.
CREATE TRIGGER questions_record_version AFTER UPDATE ON questions
  FOR EACH ROW
  WHEN (
    (OLD.text, OLD.back, OLD.options, OLD.correct_answer, OLD.correct_answers,
     OLD.num_correct_answers, OLD.question_type, OLD.instructions, OLD.explanation,
     OLD.generated_explanation, OLD.category, OLD.part, OLD.year, OLD.number, OLD.source,
     OLD.is_public, OLD.program_id, OLD.share_statement, OLD.reserved)
    IS DISTINCT FROM
    (NEW.text, NEW.back, NEW.options, NEW.correct_answer, NEW.correct_answers,
     NEW.num_correct_answers, NEW.question_type, NEW.instructions, NEW.explanation,
     NEW.generated_explanation, NEW.category, NEW.part, NEW.year, NEW.number, NEW.source,
     NEW.is_public, NEW.program_id, NEW.share_statement, NEW.reserved)
  )
  EXECUTE FUNCTION question_versions_record();
