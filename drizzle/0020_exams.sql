CREATE TABLE "exam_answers" (
	"exam_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"selected" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_correct" boolean DEFAULT false NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"flagged" boolean DEFAULT false NOT NULL,
	"eliminated" text[] DEFAULT '{}'::text[] NOT NULL,
	"time_spent_ms" integer DEFAULT 0 NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "exam_answers_exam_id_question_id_pk" PRIMARY KEY("exam_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "exam_questions" (
	"exam_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"question_id" uuid NOT NULL,
	CONSTRAINT "exam_questions_exam_id_position_pk" PRIMARY KEY("exam_id","position")
);
--> statement-breakpoint
CREATE TABLE "exams" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"mock_exam_id" uuid,
	"mode" text NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"requested_size" integer NOT NULL,
	"question_count" integer NOT NULL,
	"part" text NOT NULL,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"pool" text NOT NULL,
	"seconds_per_question" integer NOT NULL,
	"seed" bigint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"correct_count" integer,
	CONSTRAINT "exams_mode_check" CHECK ("exams"."mode" in ('tutor','timed')),
	CONSTRAINT "exams_status_check" CHECK ("exams"."status" in ('in_progress','submitted','expired')),
	CONSTRAINT "exams_part_check" CHECK ("exams"."part" in ('1','2','both')),
	CONSTRAINT "exams_pool_check" CHECK ("exams"."pool" in ('unused','incorrect','flagged','all'))
);
--> statement-breakpoint
CREATE TABLE "mock_exam_questions" (
	"mock_exam_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"question_id" uuid NOT NULL,
	CONSTRAINT "mock_exam_questions_mock_exam_id_position_pk" PRIMARY KEY("mock_exam_id","position")
);
--> statement-breakpoint
CREATE TABLE "mock_exams" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_id" uuid NOT NULL,
	"code" text NOT NULL,
	"mode" text NOT NULL,
	"part" text NOT NULL,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"seconds_per_question" integer NOT NULL,
	"seed" bigint NOT NULL,
	"closed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mock_exams_mode_check" CHECK ("mock_exams"."mode" in ('tutor','timed')),
	CONSTRAINT "mock_exams_part_check" CHECK ("mock_exams"."part" in ('1','2','both'))
);
--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "exam_id" uuid;--> statement-breakpoint
ALTER TABLE "exam_answers" ADD CONSTRAINT "exam_answers_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_answers" ADD CONSTRAINT "exam_answers_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_answers" ADD CONSTRAINT "exam_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_questions" ADD CONSTRAINT "exam_questions_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_questions" ADD CONSTRAINT "exam_questions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_mock_exam_id_mock_exams_id_fk" FOREIGN KEY ("mock_exam_id") REFERENCES "public"."mock_exams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mock_exam_questions" ADD CONSTRAINT "mock_exam_questions_mock_exam_id_mock_exams_id_fk" FOREIGN KEY ("mock_exam_id") REFERENCES "public"."mock_exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mock_exam_questions" ADD CONSTRAINT "mock_exam_questions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mock_exams" ADD CONSTRAINT "mock_exams_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exam_answers_user_answered_idx" ON "exam_answers" USING btree ("user_id","answered_at");--> statement-breakpoint
CREATE INDEX "exam_answers_question_idx" ON "exam_answers" USING btree ("question_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exam_questions_question_key" ON "exam_questions" USING btree ("exam_id","question_id");--> statement-breakpoint
CREATE INDEX "exam_questions_question_idx" ON "exam_questions" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "exams_user_started_idx" ON "exams" USING btree ("user_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "exams_mock_idx" ON "exams" USING btree ("mock_exam_id");--> statement-breakpoint
CREATE INDEX "exams_deadline_idx" ON "exams" USING btree ("ends_at") WHERE "exams"."status" = 'in_progress' and "exams"."ends_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "mock_exam_questions_question_key" ON "mock_exam_questions" USING btree ("mock_exam_id","question_id");--> statement-breakpoint
CREATE INDEX "mock_exam_questions_question_idx" ON "mock_exam_questions" USING btree ("question_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mock_exams_code_key" ON "mock_exams" USING btree ("code");--> statement-breakpoint
CREATE INDEX "mock_exams_creator_idx" ON "mock_exams" USING btree ("creator_id","created_at");--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reviews_exam_idx" ON "reviews" USING btree ("exam_id") WHERE "reviews"."exam_id" is not null;