-- question_available_to(questions, uuid) took the row type, which PostgreSQL will not let a table change
-- under; it now takes the columns it reads, so later migrations can alter questions freely.
DROP FUNCTION question_available_to(questions, uuid);
--> statement-breakpoint
CREATE TABLE "media" (
	"sha256" text PRIMARY KEY NOT NULL,
	"mime_type" text NOT NULL,
	"byte_size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_sha256_check" CHECK ("media"."sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "media_mime_type_check" CHECK ("media"."mime_type" in ('image/png','image/jpeg','image/gif','image/webp','image/svg+xml')),
	CONSTRAINT "media_byte_size_check" CHECK ("media"."byte_size" > 0 and "media"."byte_size" <= 5242880)
);
--> statement-breakpoint
CREATE TABLE "question_media" (
	"question_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "question_media_question_id_sha256_pk" PRIMARY KEY("question_id","sha256")
);
--> statement-breakpoint
ALTER TABLE "questions" DROP CONSTRAINT "questions_type_check";--> statement-breakpoint
DROP INDEX "questions_creator_keyed_idx";--> statement-breakpoint
DROP INDEX "questions_public_keyed_idx";--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "back" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "source" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_media" ADD CONSTRAINT "question_media_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_media" ADD CONSTRAINT "question_media_sha256_media_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."media"("sha256") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_media_sha256_idx" ON "question_media" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "questions_source_idx" ON "questions" USING btree ("source") WHERE "questions"."source" <> '';--> statement-breakpoint
CREATE INDEX "questions_creator_keyed_idx" ON "questions" USING btree ("creator_id","id") WHERE ("questions"."question_type" = 'flashcard' or cardinality("questions"."correct_answers") > 0 or "questions"."correct_answer" <> '');--> statement-breakpoint
CREATE INDEX "questions_public_keyed_idx" ON "questions" USING btree ("id","creator_id") WHERE "questions"."is_public" and ("questions"."question_type" = 'flashcard' or cardinality("questions"."correct_answers") > 0 or "questions"."correct_answer" <> '');--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_type_check" CHECK ("questions"."question_type" in ('standard','fourOptions','multipleCorrect','flashcard'));--> statement-breakpoint
-- A flashcard is rated by the resident, not checked, so it is studiable without an answer key (issue 17).
CREATE FUNCTION question_available_to(
  creator_id uuid,
  is_public boolean,
  question_type text,
  correct_answers text[],
  correct_answer text,
  viewer uuid
)
RETURNS boolean
LANGUAGE sql
IMMUTABLE
PARALLEL SAFE
RETURN (creator_id = viewer OR is_public)
  AND (question_type = 'flashcard' OR cardinality(correct_answers) > 0 OR correct_answer <> '');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION study_states_set_available()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  SELECT question_available_to(
    q.creator_id, q.is_public, q.question_type, q.correct_answers, q.correct_answer, NEW.user_id
  ) INTO NEW.available
  FROM questions q WHERE q.id = NEW.question_id;
  NEW.available := coalesce(NEW.available, false);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION questions_refresh_availability()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE study_states s
  SET available = question_available_to(
    NEW.creator_id, NEW.is_public, NEW.question_type, NEW.correct_answers, NEW.correct_answer, s.user_id
  )
  WHERE s.question_id = NEW.id
    AND s.available IS DISTINCT FROM question_available_to(
      NEW.creator_id, NEW.is_public, NEW.question_type, NEW.correct_answers, NEW.correct_answer, s.user_id
    );
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER questions_availability_changed ON questions;
--> statement-breakpoint
CREATE TRIGGER questions_availability_changed
AFTER UPDATE ON questions
FOR EACH ROW
WHEN (
  OLD.is_public IS DISTINCT FROM NEW.is_public
  OR OLD.creator_id IS DISTINCT FROM NEW.creator_id
  OR OLD.correct_answer IS DISTINCT FROM NEW.correct_answer
  OR OLD.correct_answers IS DISTINCT FROM NEW.correct_answers
  OR OLD.question_type IS DISTINCT FROM NEW.question_type
)
EXECUTE FUNCTION questions_refresh_availability();
