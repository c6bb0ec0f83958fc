CREATE TABLE "question_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"question_id" uuid NOT NULL,
	"reporter_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"response" text DEFAULT '' NOT NULL,
	"resolved_by_id" uuid,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_reports_kind_check" CHECK ("question_reports"."kind" in ('wrong_answer','unclear','outdated','duplicate','copyright','other')),
	CONSTRAINT "question_reports_status_check" CHECK ("question_reports"."status" in ('open','answered','fixed','dismissed'))
);
--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "taken_down_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "question_reports" ADD CONSTRAINT "question_reports_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_reports" ADD CONSTRAINT "question_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_reports" ADD CONSTRAINT "question_reports_resolved_by_id_users_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "question_reports_open_unique" ON "question_reports" USING btree ("question_id","reporter_id") WHERE "question_reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "question_reports_open_wrong_answer_idx" ON "question_reports" USING btree ("question_id","created_at") WHERE "question_reports"."status" = 'open' and "question_reports"."kind" = 'wrong_answer';--> statement-breakpoint
CREATE INDEX "question_reports_question_created_idx" ON "question_reports" USING btree ("question_id","created_at");--> statement-breakpoint
CREATE INDEX "question_reports_reporter_created_idx" ON "question_reports" USING btree ("reporter_id","created_at" DESC NULLS LAST);