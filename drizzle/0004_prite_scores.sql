CREATE TABLE "prite_scores" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"year" text NOT NULL,
	"overall_percentile" integer NOT NULL,
	"psychiatry_percentile" integer,
	"neuroscience_percentile" integer,
	"soma_percentile" integer,
	"growth_percentile" integer,
	"sections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prite_scores" ADD CONSTRAINT "prite_scores_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prite_scores_user_idx" ON "prite_scores" USING btree ("user_id","year");