CREATE TABLE "programs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"institution" text DEFAULT '' NOT NULL,
	"code" text NOT NULL,
	"inactive_days" integer DEFAULT 14 NOT NULL,
	"accuracy_flag" double precision DEFAULT 0.6 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "program_assignment_progress" (
	"assignment_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "program_assignment_progress_assignment_id_user_id_pk" PRIMARY KEY("assignment_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "program_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"program_id" uuid NOT NULL,
	"created_by" uuid,
	"kind" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"pgy_level" text,
	"mock_exam_id" uuid,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"question_count" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "program_assignments_kind_check" CHECK ("program_assignments"."kind" in ('exam','study'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "program_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "program_role" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "program_joined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "share_scores_with_program" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "program_id" uuid;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "reserved" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "share_statement" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "mock_exams" ADD COLUMN "program_id" uuid;--> statement-breakpoint
ALTER TABLE "program_assignment_progress" ADD CONSTRAINT "program_assignment_progress_assignment_id_program_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."program_assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_assignment_progress" ADD CONSTRAINT "program_assignment_progress_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_assignments" ADD CONSTRAINT "program_assignments_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_assignments" ADD CONSTRAINT "program_assignments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_assignments" ADD CONSTRAINT "program_assignments_mock_exam_id_mock_exams_id_fk" FOREIGN KEY ("mock_exam_id") REFERENCES "public"."mock_exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "programs_code_key" ON "programs" USING btree ("code");--> statement-breakpoint
CREATE INDEX "program_assignments_program_idx" ON "program_assignments" USING btree ("program_id","due_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mock_exams" ADD CONSTRAINT "mock_exams_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_program_idx" ON "users" USING btree ("program_id") WHERE "users"."program_id" is not null;--> statement-breakpoint
CREATE INDEX "questions_program_created_idx" ON "questions" USING btree ("program_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "questions"."program_id" is not null and not "questions"."is_public";--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_program_role_check" CHECK ("users"."program_id" is null or "users"."program_role" in ('director','resident'));--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_reserved_check" CHECK (not ("questions"."reserved" and "questions"."is_public"));