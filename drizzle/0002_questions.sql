CREATE TABLE "questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_id" uuid NOT NULL,
	"text" text NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"correct_answer" text DEFAULT '' NOT NULL,
	"correct_answers" text[] DEFAULT '{}'::text[] NOT NULL,
	"num_correct_answers" integer DEFAULT 1 NOT NULL,
	"question_type" text DEFAULT 'standard' NOT NULL,
	"instructions" text DEFAULT '' NOT NULL,
	"explanation" text DEFAULT '' NOT NULL,
	"generated_explanation" text DEFAULT '' NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"part" text NOT NULL,
	"year" integer NOT NULL,
	"number" integer,
	"is_public" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(text || ' ' || (options::text) || ' ' || explanation)) STORED NOT NULL,
	CONSTRAINT "questions_part_check" CHECK ("questions"."part" in ('1','2')),
	CONSTRAINT "questions_type_check" CHECK ("questions"."question_type" in ('standard','fourOptions','multipleCorrect'))
);
--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "questions_creator_created_idx" ON "questions" USING btree ("creator_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "questions_public_created_idx" ON "questions" USING btree ("created_at" DESC NULLS LAST) WHERE "questions"."is_public";--> statement-breakpoint
CREATE INDEX "questions_part_year_number_idx" ON "questions" USING btree ("part","year","number");--> statement-breakpoint
CREATE INDEX "questions_category_idx" ON "questions" USING btree ("category");--> statement-breakpoint
CREATE INDEX "questions_search_trgm_idx" ON "questions" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "questions_text_trgm_idx" ON "questions" USING gin (lower("text") gin_trgm_ops);