-- Every change to a user or a session announces the user's id on 'auth_changed', whatever wrote it
-- (another server process, `prite users promote` on the same PostgreSQL, psql): servers keep
-- validated sessions in memory for a few seconds and drop that user's on hearing it
-- (docs/decisions/092-session-cache.md). Identical payloads within a transaction are sent once.
CREATE OR REPLACE FUNCTION auth_changed_notify()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('auth_changed', OLD.id::text);
  ELSE
    PERFORM pg_notify('auth_changed', OLD.user_id::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_auth_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();
--> statement-breakpoint
CREATE TRIGGER sessions_auth_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();
