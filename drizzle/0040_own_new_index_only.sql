-- Decision 428: the due page reads the user's own new questions with whether each was written by hand
-- today (by_hand, created_at: decision 370), which the index did not hold, so every page read each own
-- question's row. With them included the scan is index-only. drizzle-kit cannot write INCLUDE: the
-- schema declares the index without it, and the snapshot is 0039's.
DROP INDEX "questions_creator_keyed_idx";--> statement-breakpoint
CREATE INDEX "questions_creator_keyed_idx" ON "questions" USING btree ("creator_id","id") INCLUDE ("created_at","by_hand") WHERE ("questions"."question_type" = 'flashcard' or cardinality("questions"."correct_answers") > 0 or "questions"."correct_answer" <> '');
