CREATE TABLE "answer_category_totals" (
	"user_id" uuid NOT NULL,
	"category" text NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "answer_category_totals_user_id_category_pk" PRIMARY KEY("user_id","category")
);
--> statement-breakpoint
CREATE TABLE "answer_quarters" (
	"user_id" uuid NOT NULL,
	"quarter" timestamp with time zone NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "answer_quarters_user_id_quarter_pk" PRIMARY KEY("user_id","quarter")
);
--> statement-breakpoint
CREATE TABLE "answer_totals" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "answer_window" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "answer_window_start" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"start_at" timestamp with time zone DEFAULT '-infinity' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "answer_category_totals" ADD CONSTRAINT "answer_category_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_quarters" ADD CONSTRAINT "answer_quarters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_totals" ADD CONSTRAINT "answer_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_window" ADD CONSTRAINT "answer_window_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answer_quarters_quarter_idx" ON "answer_quarters" USING btree ("quarter");--> statement-breakpoint
CREATE INDEX "reviews_reviewed_at_idx" ON "reviews" USING btree ("reviewed_at");--> statement-breakpoint
CREATE INDEX "exam_answers_answered_at_idx" ON "exam_answers" USING btree ("answered_at");
--> statement-breakpoint
-- Issue 20 item 2, decision 220: the dashboard's and the rankings' figures kept as answers arrive.
-- A counted answer is a study review that is not an exam's lapse record (exam_id null) or an answer
-- of a finished exam with a selection and a time (decision 170). answer_rollup_apply adds a batch of
-- counted answers (answered/correct +1 or -1) and study sessions (sessions +1 or -1) to every rollup:
-- rows that grow are upserted in key order (two writers never lock them in opposite orders within a
-- statement), rows that shrink are updated (they exist; a user being deleted has none left to fill).
-- Every writer holds advisory lock 220220 shared; answer_window_advance holds it exclusively while it
-- moves the window's start, so no answer is added against a start that is being moved.
CREATE OR REPLACE FUNCTION answer_rollup_apply(
  p_user uuid[], p_category text[], p_at timestamptz[], p_answered int[], p_correct int[], p_sessions int[]
) RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
  v_start timestamptz;
BEGIN
  IF p_user IS NULL OR cardinality(p_user) = 0 THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(220220);
  SELECT start_at INTO v_start FROM answer_window_start WHERE id = 1;

  WITH x AS (
    SELECT u, a, c FROM unnest(p_user, p_answered, p_correct) AS t(u, a, c) WHERE a <> 0 OR c <> 0
  ), d AS (
    SELECT u, sum(a)::int AS a, sum(c)::int AS c FROM x GROUP BY u HAVING sum(a) <> 0 OR sum(c) <> 0
  ), grown AS (
    INSERT INTO answer_totals AS t (user_id, answered, correct)
    SELECT u, a, c FROM d WHERE a > 0 ORDER BY u
    ON CONFLICT (user_id) DO UPDATE
      SET answered = t.answered + excluded.answered, correct = t.correct + excluded.correct
  )
  UPDATE answer_totals AS t SET answered = t.answered + d.a, correct = t.correct + d.c
  FROM d WHERE t.user_id = d.u AND d.a <= 0;

  WITH x AS (
    SELECT u, k, a, c FROM unnest(p_user, p_category, p_answered, p_correct) AS t(u, k, a, c)
    WHERE a <> 0 OR c <> 0
  ), d AS (
    SELECT u, k, sum(a)::int AS a, sum(c)::int AS c FROM x GROUP BY u, k
    HAVING sum(a) <> 0 OR sum(c) <> 0
  ), grown AS (
    INSERT INTO answer_category_totals AS t (user_id, category, answered, correct)
    SELECT u, k, a, c FROM d WHERE a > 0 ORDER BY u, k
    ON CONFLICT (user_id, category) DO UPDATE
      SET answered = t.answered + excluded.answered, correct = t.correct + excluded.correct
  )
  UPDATE answer_category_totals AS t SET answered = t.answered + d.a, correct = t.correct + d.c
  FROM d WHERE t.user_id = d.u AND t.category = d.k AND d.a <= 0;

  WITH x AS (
    SELECT u, date_bin('15 minutes', w, timestamptz '2000-01-01 00:00:00+00') AS q, a, c, s
    FROM unnest(p_user, p_at, p_answered, p_correct, p_sessions) AS t(u, w, a, c, s)
  ), d AS (
    SELECT u, q, sum(a)::int AS a, sum(c)::int AS c, sum(s)::int AS s FROM x GROUP BY u, q
    HAVING sum(a) <> 0 OR sum(c) <> 0 OR sum(s) <> 0
  ), grown AS (
    INSERT INTO answer_quarters AS t (user_id, quarter, answered, correct, sessions)
    SELECT u, q, a, c, s FROM d WHERE a > 0 OR (a = 0 AND s > 0) ORDER BY u, q
    ON CONFLICT (user_id, quarter) DO UPDATE
      SET answered = t.answered + excluded.answered, correct = t.correct + excluded.correct,
          sessions = t.sessions + excluded.sessions
  )
  UPDATE answer_quarters AS t
  SET answered = t.answered + d.a, correct = t.correct + d.c, sessions = t.sessions + d.s
  FROM d WHERE t.user_id = d.u AND t.quarter = d.q AND NOT (d.a > 0 OR (d.a = 0 AND d.s > 0));

  WITH x AS (
    SELECT u, a, c FROM unnest(p_user, p_at, p_answered, p_correct) AS t(u, w, a, c)
    WHERE w >= v_start AND (a <> 0 OR c <> 0)
  ), d AS (
    SELECT u, sum(a)::int AS a, sum(c)::int AS c FROM x GROUP BY u HAVING sum(a) <> 0 OR sum(c) <> 0
  ), grown AS (
    INSERT INTO answer_window AS t (user_id, answered, correct)
    SELECT u, a, c FROM d WHERE a > 0 ORDER BY u
    ON CONFLICT (user_id) DO UPDATE
      SET answered = t.answered + excluded.answered, correct = t.correct + excluded.correct
  )
  UPDATE answer_window AS t SET answered = t.answered + d.a, correct = t.correct + d.c
  FROM d WHERE t.user_id = d.u AND d.a <= 0;
END;
$$;
--> statement-breakpoint
-- Moves the week window's start forward to p_to (a quarter hour): the answers between the old start
-- and the new one leave answer_window. A long jump (a server idle for days) rebuilds it instead.
CREATE OR REPLACE FUNCTION answer_window_advance(p_to timestamptz) RETURNS timestamptz
LANGUAGE plpgsql
AS $$
DECLARE
  v_from timestamptz;
  v_to timestamptz := date_bin('15 minutes', p_to, timestamptz '2000-01-01 00:00:00+00');
BEGIN
  PERFORM pg_advisory_xact_lock(220220);
  SELECT start_at INTO v_from FROM answer_window_start WHERE id = 1;
  IF v_to <= v_from THEN
    RETURN v_from;
  END IF;
  IF v_to - v_from > interval '1 day' THEN
    DELETE FROM answer_window;
    INSERT INTO answer_window (user_id, answered, correct)
    SELECT user_id, sum(answered)::int, sum(correct)::int FROM answer_quarters
    WHERE quarter >= v_to GROUP BY user_id HAVING sum(answered) > 0 ORDER BY user_id;
  ELSE
    UPDATE answer_window AS t SET answered = t.answered - d.a, correct = t.correct - d.c
    FROM (
      SELECT user_id, sum(answered)::int AS a, sum(correct)::int AS c FROM answer_quarters
      WHERE quarter >= v_from AND quarter < v_to GROUP BY user_id
    ) d
    WHERE t.user_id = d.user_id AND (d.a <> 0 OR d.c <> 0);
  END IF;
  UPDATE answer_window_start SET start_at = v_to WHERE id = 1;
  RETURN v_to;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION reviews_rollup_after_insert() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM answer_rollup_apply(array_agg(user_id), array_agg(category), array_agg(reviewed_at),
    array_agg(1), array_agg(is_correct::int), array_agg(0))
  FROM inserted WHERE exam_id IS NULL;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION reviews_rollup_after_delete() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM answer_rollup_apply(array_agg(user_id), array_agg(category), array_agg(reviewed_at),
    array_agg(-1), array_agg(-(is_correct::int)), array_agg(0))
  FROM deleted WHERE exam_id IS NULL;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION reviews_rollup_after_update() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM answer_rollup_apply(array_agg(u), array_agg(k), array_agg(w), array_agg(a), array_agg(c), array_agg(0))
  FROM (
    SELECT OLD.user_id, OLD.category, OLD.reviewed_at, -1, -(OLD.is_correct::int) WHERE OLD.exam_id IS NULL
    UNION ALL
    SELECT NEW.user_id, NEW.category, NEW.reviewed_at, 1, NEW.is_correct::int WHERE NEW.exam_id IS NULL
  ) AS t(u, k, w, a, c);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER reviews_rollup_insert AFTER INSERT ON reviews
REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION reviews_rollup_after_insert();
--> statement-breakpoint
CREATE TRIGGER reviews_rollup_delete AFTER DELETE ON reviews
REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION reviews_rollup_after_delete();
--> statement-breakpoint
CREATE TRIGGER reviews_rollup_update AFTER UPDATE ON reviews FOR EACH ROW
WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.category IS DISTINCT FROM NEW.category
  OR OLD.is_correct IS DISTINCT FROM NEW.is_correct OR OLD.reviewed_at IS DISTINCT FROM NEW.reviewed_at
  OR (OLD.exam_id IS NULL) <> (NEW.exam_id IS NULL))
EXECUTE FUNCTION reviews_rollup_after_update();
--> statement-breakpoint
-- Exam answers count while their exam is finished: an answer changed, added or removed then (none is,
-- today) moves the rollups; finishing or deleting the exam moves all of them at once.
CREATE OR REPLACE FUNCTION exam_answers_rollup_after_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  v_exam uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.exam_id ELSE NEW.exam_id END;
BEGIN
  IF NOT coalesce((SELECT status <> 'in_progress' FROM exams WHERE id = v_exam), false) THEN
    RETURN NULL;
  END IF;
  PERFORM answer_rollup_apply(array_agg(u), array_agg(k), array_agg(w), array_agg(a), array_agg(c), array_agg(0))
  FROM (
    SELECT OLD.user_id, OLD.category, OLD.answered_at, -1, -(OLD.is_correct::int)
    WHERE TG_OP <> 'INSERT' AND cardinality(OLD.selected) > 0 AND OLD.answered_at IS NOT NULL
    UNION ALL
    SELECT NEW.user_id, NEW.category, NEW.answered_at, 1, NEW.is_correct::int
    WHERE TG_OP <> 'DELETE' AND cardinality(NEW.selected) > 0 AND NEW.answered_at IS NOT NULL
  ) AS t(u, k, w, a, c);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER exam_answers_rollup_insert AFTER INSERT ON exam_answers FOR EACH ROW
WHEN (cardinality(NEW.selected) > 0 AND NEW.answered_at IS NOT NULL)
EXECUTE FUNCTION exam_answers_rollup_after_change();
--> statement-breakpoint
CREATE TRIGGER exam_answers_rollup_update AFTER UPDATE ON exam_answers FOR EACH ROW
WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.category IS DISTINCT FROM NEW.category
  OR OLD.is_correct IS DISTINCT FROM NEW.is_correct OR OLD.answered_at IS DISTINCT FROM NEW.answered_at
  OR OLD.selected IS DISTINCT FROM NEW.selected)
EXECUTE FUNCTION exam_answers_rollup_after_change();
--> statement-breakpoint
CREATE TRIGGER exam_answers_rollup_delete AFTER DELETE ON exam_answers FOR EACH ROW
WHEN (cardinality(OLD.selected) > 0 AND OLD.answered_at IS NOT NULL)
EXECUTE FUNCTION exam_answers_rollup_after_change();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION exams_rollup_status() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  v_sign int;
  v_exam uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN
    v_exam := OLD.id;
    v_sign := CASE WHEN OLD.status <> 'in_progress' THEN -1 ELSE 0 END;
  ELSE
    v_exam := NEW.id;
    v_sign := (NEW.status <> 'in_progress')::int - (OLD.status <> 'in_progress')::int;
  END IF;
  IF v_sign <> 0 THEN
    PERFORM answer_rollup_apply(array_agg(user_id), array_agg(category), array_agg(answered_at),
      array_agg(v_sign), array_agg(v_sign * is_correct::int), array_agg(0))
    FROM exam_answers
    WHERE exam_id = v_exam AND cardinality(selected) > 0 AND answered_at IS NOT NULL;
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER exams_rollup_update AFTER UPDATE ON exams FOR EACH ROW
WHEN (OLD.status IS DISTINCT FROM NEW.status)
EXECUTE FUNCTION exams_rollup_status();
--> statement-breakpoint
-- Before the delete, while its answers are still there; the cascade then finds no exam to count them.
CREATE TRIGGER exams_rollup_delete BEFORE DELETE ON exams FOR EACH ROW
EXECUTE FUNCTION exams_rollup_status();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION study_sessions_rollup_after_insert() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM answer_rollup_apply(array_agg(user_id), array_agg(''::text), array_agg(started_at),
    array_agg(0), array_agg(0), array_agg(1))
  FROM inserted;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION study_sessions_rollup_after_delete() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM answer_rollup_apply(array_agg(user_id), array_agg(''::text), array_agg(started_at),
    array_agg(0), array_agg(0), array_agg(-1))
  FROM deleted;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION study_sessions_rollup_after_update() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM answer_rollup_apply(ARRAY[OLD.user_id, NEW.user_id], ARRAY['', ''], ARRAY[OLD.started_at, NEW.started_at],
    ARRAY[0, 0], ARRAY[0, 0], ARRAY[-1, 1]);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER study_sessions_rollup_insert AFTER INSERT ON study_sessions
REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION study_sessions_rollup_after_insert();
--> statement-breakpoint
CREATE TRIGGER study_sessions_rollup_delete AFTER DELETE ON study_sessions
REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION study_sessions_rollup_after_delete();
--> statement-breakpoint
CREATE TRIGGER study_sessions_rollup_update AFTER UPDATE ON study_sessions FOR EACH ROW
WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.started_at IS DISTINCT FROM NEW.started_at)
EXECUTE FUNCTION study_sessions_rollup_after_update();
--> statement-breakpoint
-- The backfill: the window starts at the first quarter hour inside the last 7 days; then every counted
-- answer and every session so far, through the same function the triggers use.
INSERT INTO answer_window_start (id, start_at)
VALUES (1, date_bin('15 minutes', now() - interval '7 days' + interval '15 minutes' - interval '1 microsecond',
  timestamptz '2000-01-01 00:00:00+00'));
--> statement-breakpoint
SELECT answer_rollup_apply(array_agg(user_id), array_agg(category), array_agg(reviewed_at),
  array_agg(1), array_agg(is_correct::int), array_agg(0))
FROM reviews WHERE exam_id IS NULL;
--> statement-breakpoint
SELECT answer_rollup_apply(array_agg(a.user_id), array_agg(a.category), array_agg(a.answered_at),
  array_agg(1), array_agg(a.is_correct::int), array_agg(0))
FROM exam_answers a JOIN exams e ON e.id = a.exam_id
WHERE e.status <> 'in_progress' AND cardinality(a.selected) > 0 AND a.answered_at IS NOT NULL;
--> statement-breakpoint
SELECT answer_rollup_apply(array_agg(user_id), array_agg(''::text), array_agg(started_at),
  array_agg(0), array_agg(0), array_agg(1))
FROM study_sessions;
