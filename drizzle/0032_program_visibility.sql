-- Issue 32, decisions 350-352: a question is visible to its creator, to everyone when public, and to the
-- current members of its program when it is a program's (reserved ones: the program's directors).
-- study_states.available (0011, 0012, 0021) follows the same rule: it now reads the viewer's program
-- from users, and is refreshed when a question's program or reservation changes and when a user's
-- program or role changes. The per-user versions (0023, 0024, 0026) move for the members of a program
-- whose bank changes, and for a user whose membership changes, so kept due pages and summaries end.
CREATE FUNCTION question_available_to(
  p_creator_id uuid,
  p_is_public boolean,
  p_program_id uuid,
  p_reserved boolean,
  p_question_type text,
  p_correct_answers text[],
  p_correct_answer text,
  p_viewer uuid
)
RETURNS boolean
LANGUAGE sql
STABLE
PARALLEL SAFE
RETURN (
    p_creator_id = p_viewer
    OR p_is_public
    OR (p_program_id IS NOT NULL AND EXISTS (
      SELECT 1 FROM users v
      WHERE v.id = p_viewer AND v.program_id = p_program_id
        AND (NOT p_reserved OR v.program_role = 'director')
    ))
  )
  AND (p_question_type = 'flashcard' OR cardinality(p_correct_answers) > 0 OR p_correct_answer <> '');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION study_states_set_available()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  SELECT question_available_to(
    q.creator_id, q.is_public, q.program_id, q.reserved, q.question_type, q.correct_answers,
    q.correct_answer, NEW.user_id
  ) INTO NEW.available
  FROM questions q WHERE q.id = NEW.question_id;
  NEW.available := coalesce(NEW.available, false);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION questions_refresh_availability()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE study_states s
  SET available = question_available_to(
    NEW.creator_id, NEW.is_public, NEW.program_id, NEW.reserved, NEW.question_type,
    NEW.correct_answers, NEW.correct_answer, s.user_id
  )
  WHERE s.question_id = NEW.id
    AND s.available IS DISTINCT FROM question_available_to(
      NEW.creator_id, NEW.is_public, NEW.program_id, NEW.reserved, NEW.question_type,
      NEW.correct_answers, NEW.correct_answer, s.user_id
    );
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP FUNCTION question_available_to(uuid, boolean, text, text[], text, uuid);
--> statement-breakpoint
DROP TRIGGER questions_availability_changed ON questions;
--> statement-breakpoint
CREATE TRIGGER questions_availability_changed
AFTER UPDATE ON questions
FOR EACH ROW
WHEN (
  OLD.is_public IS DISTINCT FROM NEW.is_public
  OR OLD.creator_id IS DISTINCT FROM NEW.creator_id
  OR OLD.program_id IS DISTINCT FROM NEW.program_id
  OR OLD.reserved IS DISTINCT FROM NEW.reserved
  OR OLD.correct_answer IS DISTINCT FROM NEW.correct_answer
  OR OLD.correct_answers IS DISTINCT FROM NEW.correct_answers
  OR OLD.question_type IS DISTINCT FROM NEW.question_type
)
EXECUTE FUNCTION questions_refresh_availability();
--> statement-breakpoint
-- Joining, leaving, being removed or changing role: the user's states of program questions follow at
-- once (their own and public questions do not depend on the program), and their version moves.
CREATE FUNCTION users_refresh_program_availability()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE study_states s
  SET available = question_available_to(
    q.creator_id, q.is_public, q.program_id, q.reserved, q.question_type, q.correct_answers,
    q.correct_answer, s.user_id
  )
  FROM questions q
  WHERE s.user_id = NEW.id AND q.id = s.question_id
    AND q.program_id IS NOT NULL AND NOT q.is_public AND q.creator_id <> NEW.id
    AND s.available IS DISTINCT FROM question_available_to(
      q.creator_id, q.is_public, q.program_id, q.reserved, q.question_type, q.correct_answers,
      q.correct_answer, s.user_id
    );
  PERFORM summary_version_bump(ARRAY[NEW.id]);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_program_availability
AFTER UPDATE OF program_id, program_role ON users
FOR EACH ROW
WHEN (OLD.program_id IS DISTINCT FROM NEW.program_id OR OLD.program_role IS DISTINCT FROM NEW.program_role)
EXECUTE FUNCTION users_refresh_program_availability();
--> statement-breakpoint
-- The members of the programs whose bank the rows belong to (questions not public with a program).
CREATE FUNCTION program_members_of(p_programs uuid[])
RETURNS uuid[]
LANGUAGE sql
STABLE
AS $$
  SELECT coalesce(array_agg(u.id), '{}') FROM users u
  WHERE u.program_id = ANY (p_programs) AND p_programs <> '{}'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION summary_version_questions_inserted() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM summary_version_bump(ARRAY(
    SELECT creator_id FROM new_rows
    UNION SELECT '00000000-0000-0000-0000-000000000000'::uuid WHERE EXISTS (SELECT 1 FROM new_rows WHERE is_public)
    UNION SELECT unnest(program_members_of(ARRAY(
      SELECT DISTINCT program_id FROM new_rows WHERE program_id IS NOT NULL AND NOT is_public)))
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION summary_version_questions_deleted() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM summary_version_bump(ARRAY(
    SELECT creator_id FROM old_rows
    UNION SELECT '00000000-0000-0000-0000-000000000000'::uuid WHERE EXISTS (SELECT 1 FROM old_rows WHERE is_public)
    UNION SELECT unnest(program_members_of(ARRAY(
      SELECT DISTINCT program_id FROM old_rows WHERE program_id IS NOT NULL AND NOT is_public)))
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION summary_version_questions_updated() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM summary_version_bump(ARRAY(
    SELECT creator_id FROM old_rows UNION SELECT creator_id FROM new_rows
    UNION SELECT '00000000-0000-0000-0000-000000000000'::uuid
      WHERE EXISTS (SELECT 1 FROM old_rows WHERE is_public) OR EXISTS (SELECT 1 FROM new_rows WHERE is_public)
    UNION SELECT unnest(program_members_of(ARRAY(
      SELECT program_id FROM old_rows WHERE program_id IS NOT NULL AND NOT is_public
      UNION SELECT program_id FROM new_rows WHERE program_id IS NOT NULL AND NOT is_public)))
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION summary_version_user_shown_changed() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM summary_version_bump(ARRAY(
    SELECT NEW.id
    UNION
    SELECT '00000000-0000-0000-0000-000000000000'::uuid
      WHERE EXISTS (SELECT 1 FROM questions q WHERE q.creator_id = NEW.id AND q.is_public)
    UNION SELECT unnest(program_members_of(ARRAY(
      SELECT DISTINCT q.program_id FROM questions q
      WHERE q.creator_id = NEW.id AND q.program_id IS NOT NULL AND NOT q.is_public)))
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION summary_version_question_media_changed() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM summary_version_bump(ARRAY(
    SELECT q.creator_id FROM questions q WHERE q.id IN (SELECT question_id FROM changed_rows)
    UNION
    SELECT '00000000-0000-0000-0000-000000000000'::uuid WHERE EXISTS (
      SELECT 1 FROM questions q WHERE q.id IN (SELECT question_id FROM changed_rows) AND q.is_public
    )
    UNION SELECT unnest(program_members_of(ARRAY(
      SELECT DISTINCT q.program_id FROM questions q
      WHERE q.id IN (SELECT question_id FROM changed_rows) AND q.program_id IS NOT NULL AND NOT q.is_public)))
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION summary_version_question_media_updated() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM summary_version_bump(ARRAY(
    SELECT q.creator_id FROM questions q
      WHERE q.id IN (SELECT question_id FROM old_rows UNION SELECT question_id FROM new_rows)
    UNION
    SELECT '00000000-0000-0000-0000-000000000000'::uuid WHERE EXISTS (
      SELECT 1 FROM questions q
        WHERE q.id IN (SELECT question_id FROM old_rows UNION SELECT question_id FROM new_rows) AND q.is_public
    )
    UNION SELECT unnest(program_members_of(ARRAY(
      SELECT DISTINCT q.program_id FROM questions q
      WHERE q.id IN (SELECT question_id FROM old_rows UNION SELECT question_id FROM new_rows)
        AND q.program_id IS NOT NULL AND NOT q.is_public)))
  ));
  RETURN NULL;
END
$$;
