CREATE TABLE "leech_marks" (
	"user_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reported_at" timestamp with time zone,
	"report_note" text DEFAULT '' NOT NULL,
	CONSTRAINT "leech_marks_user_id_question_id_pk" PRIMARY KEY("user_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "study_resets" (
	"user_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"reset_at" timestamp with time zone NOT NULL,
	CONSTRAINT "study_resets_user_id_question_id_pk" PRIMARY KEY("user_id","question_id")
);
--> statement-breakpoint
DROP INDEX "study_states_due_order_idx";--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "by_hand" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "study_states" ADD COLUMN "leech" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "study_states" ADD COLUMN "introduced_at" timestamp with time zone;--> statement-breakpoint
-- Existing states keep a null introduction (none of them counts as introduced today); new rows get now().
ALTER TABLE "study_states" ALTER COLUMN "introduced_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "leech_marks" ADD CONSTRAINT "leech_marks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leech_marks" ADD CONSTRAINT "leech_marks_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_resets" ADD CONSTRAINT "study_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_resets" ADD CONSTRAINT "study_resets_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leech_marks_question_idx" ON "leech_marks" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "study_states_introduced_idx" ON "study_states" USING btree ("user_id","introduced_at") WHERE "study_states"."introduced_at" is not null;--> statement-breakpoint
CREATE INDEX "study_states_due_order_idx" ON "study_states" USING btree ("user_id","due_at" NULLS FIRST,"question_id") WHERE "study_states"."available" and not "study_states"."leech";--> statement-breakpoint
-- A resident who found a question a leech (issue 34): one leech_marks row per user and question, written
-- when study_states.leech turns true by whatever path (an answer, a sync's replay, an import), and kept
-- when the question is reset, so the owner's count is of residents.
CREATE OR REPLACE FUNCTION study_states_mark_leech() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO leech_marks (user_id, question_id) VALUES (NEW.user_id, NEW.question_id)
    ON CONFLICT (user_id, question_id) DO NOTHING;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER study_states_leech_on_insert AFTER INSERT ON study_states
  FOR EACH ROW WHEN (NEW.leech) EXECUTE FUNCTION study_states_mark_leech();--> statement-breakpoint
CREATE TRIGGER study_states_leech_on_update AFTER UPDATE OF leech ON study_states
  FOR EACH ROW WHEN (NEW.leech AND NOT OLD.leech) EXECUTE FUNCTION study_states_mark_leech();
