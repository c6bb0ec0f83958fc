ALTER TABLE "questions" drop column "search_text";--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "search_text" text GENERATED ALWAYS AS (question_search_text(text, options, explanation)) STORED NOT NULL;--> statement-breakpoint
-- Dropping the column dropped its trigram index; drizzle-kit does not re-emit an unchanged index.
CREATE INDEX "questions_search_trgm_idx" ON "questions" USING gin ("search_text" gin_trgm_ops);
