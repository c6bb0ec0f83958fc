-- Decision 270: the due page is kept per user and checked against the same versions as the dashboard
-- (0023, 0024). A due page also shows each question's contributor (username, or 'Anonymous' unless
-- public_profile) and its images, which the dashboard does not read: their changes now move the
-- versions too — the user's own, and the public bank's when the contributor has a public question or
-- the images are a public question's.
CREATE OR REPLACE FUNCTION summary_version_user_shown_changed() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM summary_version_bump(ARRAY(
    SELECT NEW.id
    UNION
    SELECT '00000000-0000-0000-0000-000000000000'::uuid
      WHERE EXISTS (SELECT 1 FROM questions q WHERE q.creator_id = NEW.id AND q.is_public)
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Per row (transition tables cannot go with a column list), and only when the name or the profile's
-- visibility really changed: signing in or changing a setting moves nothing.
CREATE TRIGGER users_summary_version_update AFTER UPDATE OF username, public_profile ON users
  FOR EACH ROW
  WHEN (OLD.username IS DISTINCT FROM NEW.username OR OLD.public_profile IS DISTINCT FROM NEW.public_profile)
  EXECUTE FUNCTION summary_version_user_shown_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION summary_version_question_media_changed() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  -- The question a row belongs to: its creator, and the public bank if it is public. A question being
  -- deleted (its images go by cascade) has moved the versions through its own trigger.
  PERFORM summary_version_bump(ARRAY(
    SELECT q.creator_id FROM questions q WHERE q.id IN (SELECT question_id FROM changed_rows)
    UNION
    SELECT '00000000-0000-0000-0000-000000000000'::uuid WHERE EXISTS (
      SELECT 1 FROM questions q WHERE q.id IN (SELECT question_id FROM changed_rows) AND q.is_public
    )
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER question_media_summary_version_insert AFTER INSERT ON question_media
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_version_question_media_changed();
--> statement-breakpoint
CREATE TRIGGER question_media_summary_version_delete AFTER DELETE ON question_media
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_version_question_media_changed();
--> statement-breakpoint
-- An update may move a row from one question to another: both questions' users.
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
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER question_media_summary_version_update AFTER UPDATE ON question_media
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_version_question_media_updated();
--> statement-breakpoint
CREATE TRIGGER question_media_summary_version_truncate AFTER TRUNCATE ON question_media
  FOR EACH STATEMENT EXECUTE FUNCTION summary_version_truncated();
