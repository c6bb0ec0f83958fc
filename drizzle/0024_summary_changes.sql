-- Decision 260, corrected: the version rows of 0023 were upserted, so every writer of a user held that
-- user's row until it committed. Answers and ratings of one user then queued on it and deadlocked
-- against the study state rows they lock in the other order (bench/api-load.ts --writes-only: 332 → 24
-- requests/s, "deadlock detected" in study.rate). A version is now a sum of rows that writers only
-- ever insert: no writer waits for another. Every committed write adds at least 1 to its user's sum
-- and nothing takes any away (rows are merged into one of the same total), so the sum read in one
-- statement changes exactly when a write that touched the user has committed since.
CREATE TABLE "summary_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"user_id" uuid NOT NULL,
	"weight" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "summary_changes_user_idx" ON "summary_changes" USING btree ("user_id") INCLUDE ("weight");
--> statement-breakpoint
-- Every versions row carried over as one row of its value, so sums go on from where they were.
INSERT INTO summary_changes (user_id, weight) SELECT user_id, version FROM summary_versions;
--> statement-breakpoint
DROP TABLE "summary_versions";
--> statement-breakpoint
DROP SEQUENCE "summary_version_seq";
--> statement-breakpoint
-- One row per user touched. About one insert in 16 also merges the user's older rows into one (rows
-- another merge holds are skipped, never waited for), so a user's sum stays a read of a few rows.
CREATE OR REPLACE FUNCTION summary_version_bump(p_users uuid[]) RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
  v_user uuid;
  v_id bigint;
  v_sum bigint;
BEGIN
  FOR v_user IN SELECT DISTINCT u FROM unnest(p_users) AS t(u) WHERE u IS NOT NULL LOOP
    INSERT INTO summary_changes (user_id) VALUES (v_user) RETURNING id INTO v_id;
    IF v_id % 16 = 0 THEN
      WITH gone AS (
        DELETE FROM summary_changes WHERE id IN (
          SELECT id FROM summary_changes WHERE user_id = v_user AND id < v_id FOR UPDATE SKIP LOCKED
        )
        RETURNING weight
      )
      SELECT sum(weight) INTO v_sum FROM gone;
      IF v_sum IS NOT NULL THEN
        INSERT INTO summary_changes (user_id, weight) VALUES (v_user, v_sum);
      END IF;
    END IF;
  END LOOP;
END
$$;
