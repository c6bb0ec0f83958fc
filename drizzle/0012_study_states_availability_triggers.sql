-- study_states.available: the question is visible to the state's user (own or public) and has an answer
-- to check against (decision 021). Kept here, in the database, so every way a question changes
-- (edits, imports, answer keys, a REST client) keeps it right, and the due list reads study_states alone.
CREATE OR REPLACE FUNCTION question_available_to(q questions, viewer uuid)
RETURNS boolean
LANGUAGE sql
STABLE
PARALLEL SAFE
RETURN (q.creator_id = viewer OR q.is_public)
  AND (cardinality(q.correct_answers) > 0 OR q.correct_answer <> '');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION study_states_set_available()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  SELECT question_available_to(q, NEW.user_id) INTO NEW.available
  FROM questions q WHERE q.id = NEW.question_id;
  NEW.available := coalesce(NEW.available, false);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER study_states_available_on_write
BEFORE INSERT OR UPDATE OF user_id, question_id ON study_states
FOR EACH ROW EXECUTE FUNCTION study_states_set_available();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION questions_refresh_availability()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE study_states s
  SET available = question_available_to(NEW, s.user_id)
  WHERE s.question_id = NEW.id
    AND s.available IS DISTINCT FROM question_available_to(NEW, s.user_id);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER questions_availability_changed
AFTER UPDATE ON questions
FOR EACH ROW
WHEN (
  OLD.is_public IS DISTINCT FROM NEW.is_public
  OR OLD.creator_id IS DISTINCT FROM NEW.creator_id
  OR OLD.correct_answer IS DISTINCT FROM NEW.correct_answer
  OR OLD.correct_answers IS DISTINCT FROM NEW.correct_answers
)
EXECUTE FUNCTION questions_refresh_availability();
--> statement-breakpoint
UPDATE study_states s
SET available = question_available_to(q, s.user_id)
FROM questions q
WHERE q.id = s.question_id
  AND s.available IS DISTINCT FROM question_available_to(q, s.user_id);
