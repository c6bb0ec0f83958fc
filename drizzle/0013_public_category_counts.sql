CREATE TABLE "public_category_counts" (
	"category" text PRIMARY KEY NOT NULL,
	"questions" integer NOT NULL
);
