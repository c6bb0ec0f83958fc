DROP INDEX "study_states_user_due_idx";--> statement-breakpoint
ALTER TABLE "study_states" ADD COLUMN "available" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "study_states_due_order_idx" ON "study_states" USING btree ("user_id","due_at" NULLS FIRST,"question_id") WHERE "study_states"."available";