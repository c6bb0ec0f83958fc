-- public_category_counts follows every insert, update and delete of questions, whatever wrote it.
-- Statement triggers with transition tables: a 10,000-question import changes each category once.
-- Rows are changed in category order, so two writers never lock them in opposite orders within a
-- statement; categories that fall to 0 are removed.
CREATE OR REPLACE FUNCTION public_category_counts_apply(delta_rows jsonb)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  IF delta_rows IS NULL OR jsonb_array_length(delta_rows) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO public_category_counts AS c (category, questions)
  SELECT d.category, d.n
  FROM jsonb_to_recordset(delta_rows) AS d(category text, n int)
  ORDER BY d.category
  ON CONFLICT (category) DO UPDATE SET questions = c.questions + excluded.questions;
  DELETE FROM public_category_counts WHERE questions <= 0;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public_category_counts_after_insert()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM public_category_counts_apply((
    SELECT jsonb_agg(jsonb_build_object('category', category, 'n', n))
    FROM (SELECT category, count(*)::int AS n FROM inserted WHERE is_public GROUP BY category) t
  ));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public_category_counts_after_delete()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM public_category_counts_apply((
    SELECT jsonb_agg(jsonb_build_object('category', category, 'n', -n))
    FROM (SELECT category, count(*)::int AS n FROM deleted WHERE is_public GROUP BY category) t
  ));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public_category_counts_after_update()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM public_category_counts_apply((
    SELECT jsonb_agg(jsonb_build_object('category', category, 'n', n))
    FROM (
      SELECT category, sum(n)::int AS n
      FROM (
        SELECT category, 1 AS n FROM new_rows WHERE is_public
        UNION ALL
        SELECT category, -1 AS n FROM old_rows WHERE is_public
      ) changes
      GROUP BY category
      HAVING sum(n) <> 0
    ) t
  ));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER questions_public_counts_insert
AFTER INSERT ON questions REFERENCING NEW TABLE AS inserted
FOR EACH STATEMENT EXECUTE FUNCTION public_category_counts_after_insert();
--> statement-breakpoint
CREATE TRIGGER questions_public_counts_delete
AFTER DELETE ON questions REFERENCING OLD TABLE AS deleted
FOR EACH STATEMENT EXECUTE FUNCTION public_category_counts_after_delete();
--> statement-breakpoint
CREATE TRIGGER questions_public_counts_update
AFTER UPDATE ON questions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION public_category_counts_after_update();
--> statement-breakpoint
INSERT INTO public_category_counts (category, questions)
SELECT category, count(*)::int FROM questions WHERE is_public GROUP BY category;
