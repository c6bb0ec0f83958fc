-- Existing accounts keep SM-2 until they switch (issue 19); new accounts get FSRS.
ALTER TABLE "users" ADD COLUMN "scheduler" text DEFAULT 'sm2' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "scheduler" SET DEFAULT 'fsrs';--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "desired_retention" double precision DEFAULT 0.9 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "maximum_interval" integer DEFAULT 36500 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "fsrs_parameters" double precision[];--> statement-breakpoint
ALTER TABLE "study_states" ADD COLUMN "stability" double precision;--> statement-breakpoint
ALTER TABLE "study_states" ADD COLUMN "fsrs_difficulty" double precision;