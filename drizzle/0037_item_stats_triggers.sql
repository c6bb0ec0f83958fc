-- Issue 36 item 5, decisions 390-391: item statistics kept as answers arrive, as the dashboard's
-- figures are (decision 220, drizzle/0022). A counted answer is the same as there: a study review that
-- is not an exam's lapse record (exam_id null), or an answer of a finished exam with a selection and a
-- time (decision 170). item_answers_apply adds (p_sign 1) or takes away (-1) a batch of counted
-- answers: rows that grow are upserted in key order (two writers never lock them in opposite orders
-- within a statement), rows that shrink are updated (they exist; a question being deleted has none).
CREATE OR REPLACE FUNCTION item_answers_apply(
  p_sign int, p_question uuid[], p_correct boolean[], p_time int[], p_selected jsonb[]
) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  IF p_question IS NULL OR cardinality(p_question) = 0 OR p_sign = 0 THEN
    RETURN;
  END IF;
  -- One answer (a study answer, the hot path): the same rows written directly, without the batch's
  -- aggregation (measured: about half the trigger's cost).
  IF cardinality(p_question) = 1 THEN
    IF p_sign > 0 THEN
      INSERT INTO question_item_stats AS s (question_id, answered, correct, time_ms_sum)
      VALUES (p_question[1], 1, p_correct[1]::int, coalesce(p_time[1], 0))
      ON CONFLICT (question_id) DO UPDATE
        SET answered = s.answered + 1, correct = s.correct + excluded.correct,
            time_ms_sum = s.time_ms_sum + excluded.time_ms_sum;
      INSERT INTO question_option_picks AS s (question_id, option, picks)
      SELECT DISTINCT p_question[1], upper(e), 1
      FROM jsonb_array_elements_text(coalesce(p_selected[1], '[]'::jsonb)) AS e
      WHERE e <> '' ORDER BY 2
      ON CONFLICT (question_id, option) DO UPDATE SET picks = s.picks + 1;
    ELSE
      UPDATE question_item_stats
      SET answered = answered - 1, correct = correct - p_correct[1]::int,
          time_ms_sum = time_ms_sum - coalesce(p_time[1], 0)
      WHERE question_id = p_question[1];
      UPDATE question_option_picks SET picks = picks - 1
      WHERE question_id = p_question[1] AND option IN (
        SELECT upper(e) FROM jsonb_array_elements_text(coalesce(p_selected[1], '[]'::jsonb)) AS e
      );
    END IF;
    RETURN;
  END IF;

  WITH d AS (
    SELECT q, (p_sign * count(*))::int AS a, (p_sign * count(*) FILTER (WHERE c))::int AS c,
      (p_sign * coalesce(sum(t), 0))::bigint AS t
    FROM unnest(p_question, p_correct, p_time) AS x(q, c, t) GROUP BY q
  ), grown AS (
    INSERT INTO question_item_stats AS s (question_id, answered, correct, time_ms_sum)
    SELECT q, a, c, t FROM d WHERE a > 0 ORDER BY q
    ON CONFLICT (question_id) DO UPDATE
      SET answered = s.answered + excluded.answered, correct = s.correct + excluded.correct,
          time_ms_sum = s.time_ms_sum + excluded.time_ms_sum
  )
  UPDATE question_item_stats AS s
  SET answered = s.answered + d.a, correct = s.correct + d.c, time_ms_sum = s.time_ms_sum + d.t
  FROM d WHERE s.question_id = d.q AND d.a < 0;

  -- Each answer picks each letter once, upper case, whatever it sent.
  WITH x AS (
    SELECT q, sel FROM unnest(p_question, p_selected) AS x(q, sel)
  ), o AS (
    SELECT x.q, l.o FROM x
    CROSS JOIN LATERAL (
      SELECT DISTINCT upper(e) AS o FROM jsonb_array_elements_text(coalesce(x.sel, '[]'::jsonb)) AS e
      WHERE e <> ''
    ) l
  ), d AS (
    SELECT q, o, (p_sign * count(*))::int AS p FROM o GROUP BY q, o
  ), grown AS (
    INSERT INTO question_option_picks AS s (question_id, option, picks)
    SELECT q, o, p FROM d WHERE p > 0 ORDER BY q, o
    ON CONFLICT (question_id, option) DO UPDATE SET picks = s.picks + excluded.picks
  )
  UPDATE question_option_picks AS s SET picks = s.picks + d.p
  FROM d WHERE s.question_id = d.q AND s.option = d.o AND d.p < 0;
END;
$$;
--> statement-breakpoint
-- Discrimination (decision 391): one (x, y) pair per question of each finished exam attempt of two
-- questions or more whose count right is set: x = 1 when the question was answered right (a selection
-- judged correct), y = the rest score (correct_count - x) / (question_count - 1). p_sign says whether
-- each pair is added (1) or taken away (-1); a batch whose pairs net to more attempts inserts.
CREATE OR REPLACE FUNCTION item_pairs_apply(
  p_question uuid[], p_sign int[], p_x int[], p_y float8[]
) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  IF p_question IS NULL OR cardinality(p_question) = 0 THEN
    RETURN;
  END IF;
  WITH d AS (
    SELECT q, sum(s)::int AS n, sum(s * x)::int AS sx, sum(s * y) AS sy, sum(s * y * y) AS syy,
      sum(s * x * y) AS sxy
    FROM unnest(p_question, p_sign, p_x, p_y) AS t(q, s, x, y)
    GROUP BY q
  ), grown AS (
    INSERT INTO question_item_stats AS s (question_id, exam_n, exam_sx, exam_sy, exam_syy, exam_sxy)
    SELECT q, n, sx, sy, syy, sxy FROM d WHERE n > 0 ORDER BY q
    ON CONFLICT (question_id) DO UPDATE
      SET exam_n = s.exam_n + excluded.exam_n, exam_sx = s.exam_sx + excluded.exam_sx,
          exam_sy = s.exam_sy + excluded.exam_sy, exam_syy = s.exam_syy + excluded.exam_syy,
          exam_sxy = s.exam_sxy + excluded.exam_sxy
  )
  UPDATE question_item_stats AS s
  SET exam_n = s.exam_n + d.n, exam_sx = s.exam_sx + d.sx, exam_sy = s.exam_sy + d.sy,
      exam_syy = s.exam_syy + d.syy, exam_sxy = s.exam_sxy + d.sxy
  FROM d WHERE s.question_id = d.q AND d.n <= 0;
END;
$$;
--> statement-breakpoint
-- The pairs of whole exam attempts, read from their questions and answers as they stand: p_sign per
-- attempt, with the count right and the length to take the rest scores from (an attempt whose count
-- is null or that holds fewer than two questions has no pairs).
CREATE OR REPLACE FUNCTION item_exams_apply(
  p_exam uuid[], p_sign int[], p_correct int[], p_count int[]
) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  IF p_exam IS NULL OR cardinality(p_exam) = 0 THEN
    RETURN;
  END IF;
  PERFORM item_pairs_apply(array_agg(q), array_agg(s), array_agg(x), array_agg(y))
  FROM (
    SELECT eq.question_id AS q, e.s, p.x, (e.c - p.x)::float8 / (e.n - 1) AS y
    FROM unnest(p_exam, p_sign, p_correct, p_count) AS e(id, s, c, n)
    JOIN exam_questions eq ON eq.exam_id = e.id
    LEFT JOIN exam_answers a ON a.exam_id = eq.exam_id AND a.question_id = eq.question_id
    CROSS JOIN LATERAL (
      SELECT coalesce(a.is_correct AND cardinality(a.selected) > 0, false)::int AS x
    ) p
    WHERE e.s <> 0 AND e.c IS NOT NULL AND e.n >= 2
  ) t;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION reviews_item_stats_after_insert() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM item_answers_apply(1, array_agg(question_id), array_agg(is_correct), array_agg(time_spent_ms),
    array_agg(to_jsonb(selected)))
  FROM inserted WHERE exam_id IS NULL;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION reviews_item_stats_after_delete() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM item_answers_apply(-1, array_agg(question_id), array_agg(is_correct), array_agg(time_spent_ms),
    array_agg(to_jsonb(selected)))
  FROM deleted WHERE exam_id IS NULL;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION reviews_item_stats_after_update() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF OLD.exam_id IS NULL THEN
    PERFORM item_answers_apply(-1, ARRAY[OLD.question_id], ARRAY[OLD.is_correct], ARRAY[OLD.time_spent_ms],
      ARRAY[to_jsonb(OLD.selected)]);
  END IF;
  IF NEW.exam_id IS NULL THEN
    PERFORM item_answers_apply(1, ARRAY[NEW.question_id], ARRAY[NEW.is_correct], ARRAY[NEW.time_spent_ms],
      ARRAY[to_jsonb(NEW.selected)]);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER reviews_item_stats_insert AFTER INSERT ON reviews
REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION reviews_item_stats_after_insert();
--> statement-breakpoint
CREATE TRIGGER reviews_item_stats_delete AFTER DELETE ON reviews
REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION reviews_item_stats_after_delete();
--> statement-breakpoint
-- Deleting an exam sets its lapse records' exam_id to null: they become counted study reviews.
CREATE TRIGGER reviews_item_stats_update AFTER UPDATE ON reviews FOR EACH ROW
WHEN (OLD.question_id IS DISTINCT FROM NEW.question_id OR OLD.is_correct IS DISTINCT FROM NEW.is_correct
  OR OLD.time_spent_ms IS DISTINCT FROM NEW.time_spent_ms OR OLD.selected IS DISTINCT FROM NEW.selected
  OR (OLD.exam_id IS NULL) <> (NEW.exam_id IS NULL))
EXECUTE FUNCTION reviews_item_stats_after_update();
--> statement-breakpoint
-- An answer of a finished exam changed, added or removed (none is, today, except by a cascade): its
-- counted answer moves, and its pair is taken from what it was to what it is (the attempt's count right
-- stays as it was set when it finished, so no other question's pair moves).
CREATE OR REPLACE FUNCTION exam_answers_item_stats_after_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  v_exam uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.exam_id ELSE NEW.exam_id END;
  v_question uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.question_id ELSE NEW.question_id END;
  v_c int;
  v_n int;
  v_old int := 0;
  v_new int := 0;
BEGIN
  SELECT correct_count, question_count INTO v_c, v_n FROM exams
  WHERE id = v_exam AND status <> 'in_progress';
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND cardinality(OLD.selected) > 0 AND OLD.answered_at IS NOT NULL THEN
    PERFORM item_answers_apply(-1, ARRAY[OLD.question_id], ARRAY[OLD.is_correct], ARRAY[OLD.time_spent_ms],
      ARRAY[to_jsonb(OLD.selected)]);
  END IF;
  IF TG_OP <> 'DELETE' AND cardinality(NEW.selected) > 0 AND NEW.answered_at IS NOT NULL THEN
    PERFORM item_answers_apply(1, ARRAY[NEW.question_id], ARRAY[NEW.is_correct], ARRAY[NEW.time_spent_ms],
      ARRAY[to_jsonb(NEW.selected)]);
  END IF;
  IF TG_OP <> 'INSERT' THEN
    v_old := (OLD.is_correct AND cardinality(OLD.selected) > 0)::int;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    v_new := (NEW.is_correct AND cardinality(NEW.selected) > 0)::int;
  END IF;
  IF v_old <> v_new AND v_c IS NOT NULL AND v_n >= 2
    AND EXISTS (SELECT 1 FROM exam_questions WHERE exam_id = v_exam AND question_id = v_question) THEN
    PERFORM item_pairs_apply(ARRAY[v_question, v_question], ARRAY[-1, 1], ARRAY[v_old, v_new],
      ARRAY[(v_c - v_old)::float8 / (v_n - 1), (v_c - v_new)::float8 / (v_n - 1)]);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER exam_answers_item_stats_insert AFTER INSERT ON exam_answers FOR EACH ROW
EXECUTE FUNCTION exam_answers_item_stats_after_change();
--> statement-breakpoint
CREATE TRIGGER exam_answers_item_stats_update AFTER UPDATE ON exam_answers FOR EACH ROW
WHEN (OLD.is_correct IS DISTINCT FROM NEW.is_correct
  OR OLD.answered_at IS DISTINCT FROM NEW.answered_at OR OLD.selected IS DISTINCT FROM NEW.selected
  OR OLD.time_spent_ms IS DISTINCT FROM NEW.time_spent_ms)
EXECUTE FUNCTION exam_answers_item_stats_after_change();
--> statement-breakpoint
CREATE TRIGGER exam_answers_item_stats_delete AFTER DELETE ON exam_answers FOR EACH ROW
EXECUTE FUNCTION exam_answers_item_stats_after_change();
--> statement-breakpoint
-- Finishing an exam adds its answers and its pairs; deleting a finished one (before the delete, while
-- its questions and answers are still there) takes them away. A change of a finished attempt's count
-- right or length (none is made) takes its pairs from the old figures to the new.
CREATE OR REPLACE FUNCTION exams_item_stats_status() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  v_old boolean := TG_OP <> 'INSERT' AND OLD.status <> 'in_progress';
  v_new boolean := TG_OP = 'UPDATE' AND NEW.status <> 'in_progress';
  v_exam uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  v_sign int := v_new::int - v_old::int;
BEGIN
  IF v_sign <> 0 THEN
    PERFORM item_answers_apply(v_sign, array_agg(question_id), array_agg(is_correct),
      array_agg(time_spent_ms), array_agg(to_jsonb(selected)))
    FROM exam_answers
    WHERE exam_id = v_exam AND cardinality(selected) > 0 AND answered_at IS NOT NULL;
  END IF;
  IF v_old THEN
    PERFORM item_exams_apply(ARRAY[v_exam], ARRAY[-1], ARRAY[OLD.correct_count], ARRAY[OLD.question_count]);
  END IF;
  IF v_new THEN
    PERFORM item_exams_apply(ARRAY[v_exam], ARRAY[1], ARRAY[NEW.correct_count], ARRAY[NEW.question_count]);
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER exams_item_stats_update AFTER UPDATE ON exams FOR EACH ROW
WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.correct_count IS DISTINCT FROM NEW.correct_count
  OR OLD.question_count IS DISTINCT FROM NEW.question_count)
EXECUTE FUNCTION exams_item_stats_status();
--> statement-breakpoint
CREATE TRIGGER exams_item_stats_delete BEFORE DELETE ON exams FOR EACH ROW
EXECUTE FUNCTION exams_item_stats_status();
--> statement-breakpoint
-- The backfill: every counted answer so far and every finished attempt's pairs, through the same
-- functions the triggers use.
SELECT item_answers_apply(1, array_agg(question_id), array_agg(is_correct), array_agg(time_spent_ms),
  array_agg(to_jsonb(selected)))
FROM reviews WHERE exam_id IS NULL;
--> statement-breakpoint
SELECT item_answers_apply(1, array_agg(a.question_id), array_agg(a.is_correct), array_agg(a.time_spent_ms),
  array_agg(to_jsonb(a.selected)))
FROM exam_answers a JOIN exams e ON e.id = a.exam_id
WHERE e.status <> 'in_progress' AND cardinality(a.selected) > 0 AND a.answered_at IS NOT NULL;
--> statement-breakpoint
SELECT item_exams_apply(array_agg(id), array_agg(1), array_agg(correct_count), array_agg(question_count))
FROM exams WHERE status <> 'in_progress';
