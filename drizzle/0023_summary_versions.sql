-- Issue 20 item 2, decision 260: a version per user that changes with every write the dashboard
-- (stats.summary) reads, so a server keeps a user's summary and answers it again after one cheap read
-- of that version (any process, any database: the version is in the database, read-your-writes holds).
-- Row '00000000-0000-0000-0000-000000000000' is the public bank's: every user's summary counts the
-- public questions, so a change to any public question (or a TRUNCATE of a table read) moves it.
-- Versions come from one sequence: a value is never given twice, even to a row deleted and made again.
CREATE SEQUENCE "summary_version_seq";
--> statement-breakpoint
CREATE TABLE "summary_versions" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
-- Upserted in key order, as answer_rollup_apply does, so two statements never lock rows in opposite orders.
CREATE OR REPLACE FUNCTION summary_version_bump(p_users uuid[]) RETURNS void
LANGUAGE sql
AS $$
  INSERT INTO summary_versions (user_id, version)
  SELECT u, nextval('summary_version_seq')
  FROM (SELECT DISTINCT u FROM unnest(p_users) AS t(u) WHERE u IS NOT NULL ORDER BY u) x
  ON CONFLICT (user_id) DO UPDATE SET version = excluded.version
$$;
--> statement-breakpoint
-- Statement-level: one call per statement whatever its size (a seed's 500,000 reviews are one bump).
-- PL/pgSQL compiles a trigger function per table, so these read user_id of whichever table fired.
-- Answers of an exam in progress count nowhere (decision 170): saving them, the hot path of a timed
-- exam, moves no version; the exam's own trigger moves its user's when it is submitted or deleted.
CREATE OR REPLACE FUNCTION summary_version_inserted() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_TABLE_NAME = 'exam_answers' THEN
    PERFORM summary_version_bump(ARRAY(
      SELECT DISTINCT n.user_id FROM new_rows n JOIN exams e ON e.id = n.exam_id WHERE e.status <> 'in_progress'
    ));
  ELSE
    PERFORM summary_version_bump(ARRAY(SELECT DISTINCT user_id FROM new_rows));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION summary_version_deleted() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_TABLE_NAME = 'exam_answers' THEN
    PERFORM summary_version_bump(ARRAY(
      SELECT DISTINCT o.user_id FROM old_rows o JOIN exams e ON e.id = o.exam_id WHERE e.status <> 'in_progress'
    ));
  ELSE
    PERFORM summary_version_bump(ARRAY(SELECT DISTINCT user_id FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION summary_version_updated() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_TABLE_NAME = 'exam_answers' THEN
    PERFORM summary_version_bump(ARRAY(
      SELECT x.user_id FROM (SELECT user_id, exam_id FROM old_rows UNION SELECT user_id, exam_id FROM new_rows) x
      JOIN exams e ON e.id = x.exam_id WHERE e.status <> 'in_progress'
    ));
  ELSE
    PERFORM summary_version_bump(ARRAY(
      SELECT user_id FROM old_rows UNION SELECT user_id FROM new_rows
    ));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Questions: their creator's own counts, and the public bank's version when a public question is
-- added, removed or changed (its category, answer key or visibility reach every user's summary).
CREATE OR REPLACE FUNCTION summary_version_questions_inserted() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM summary_version_bump(ARRAY(
    SELECT creator_id FROM new_rows
    UNION SELECT '00000000-0000-0000-0000-000000000000'::uuid WHERE EXISTS (SELECT 1 FROM new_rows WHERE is_public)
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
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A TRUNCATE names no users: it moves the public bank's version, which every summary also checks.
CREATE OR REPLACE FUNCTION summary_version_truncated() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM summary_version_bump(ARRAY['00000000-0000-0000-0000-000000000000'::uuid]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The same four triggers on each table whose rows carry the user they belong to.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['reviews', 'exam_answers', 'exams', 'study_sessions', 'study_states'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION summary_version_inserted()', t || '_summary_version_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION summary_version_deleted()', t || '_summary_version_delete', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION summary_version_updated()', t || '_summary_version_update', t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION summary_version_truncated()', t || '_summary_version_truncate', t);
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE TRIGGER questions_summary_version_insert AFTER INSERT ON questions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_version_questions_inserted();
--> statement-breakpoint
CREATE TRIGGER questions_summary_version_delete AFTER DELETE ON questions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_version_questions_deleted();
--> statement-breakpoint
CREATE TRIGGER questions_summary_version_update AFTER UPDATE ON questions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_version_questions_updated();
--> statement-breakpoint
CREATE TRIGGER questions_summary_version_truncate AFTER TRUNCATE ON questions
  FOR EACH STATEMENT EXECUTE FUNCTION summary_version_truncated();
