-- Search (decision 265) asks the trigram index only for public questions, and walks one category's public
-- questions newest first; the category index it replaces served lookups the new one serves as well.
DROP INDEX "questions_search_trgm_idx";--> statement-breakpoint
DROP INDEX "questions_public_category_idx";--> statement-breakpoint
CREATE INDEX "questions_public_search_trgm_idx" ON "questions" USING gin ("search_text" gin_trgm_ops) WHERE "questions"."is_public";--> statement-breakpoint
CREATE INDEX "questions_public_category_newest_idx" ON "questions" USING btree ("category","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "questions"."is_public";