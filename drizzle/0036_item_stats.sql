CREATE TABLE "question_item_stats" (
	"question_id" uuid PRIMARY KEY NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	"time_ms_sum" bigint DEFAULT 0 NOT NULL,
	"exam_n" integer DEFAULT 0 NOT NULL,
	"exam_sx" integer DEFAULT 0 NOT NULL,
	"exam_sy" double precision DEFAULT 0 NOT NULL,
	"exam_syy" double precision DEFAULT 0 NOT NULL,
	"exam_sxy" double precision DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_option_picks" (
	"question_id" uuid NOT NULL,
	"option" text NOT NULL,
	"picks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "question_option_picks_question_id_option_pk" PRIMARY KEY("question_id","option")
);
--> statement-breakpoint
ALTER TABLE "question_item_stats" ADD CONSTRAINT "question_item_stats_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_option_picks" ADD CONSTRAINT "question_option_picks_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_item_stats_share_idx" ON "question_item_stats" USING btree (("correct"::float8 / "answered")) WHERE "question_item_stats"."answered" > 0;