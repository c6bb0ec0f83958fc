CREATE TABLE "password_reset_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "password_reset_tokens_user_id_idx" ON "password_reset_tokens" USING btree ("user_id");--> statement-breakpoint
-- A session's last use (moved every few minutes by the requests themselves) changes nobody's rights:
-- only the columns that do announce the user on 'auth_changed' (0015), so servers keep their cache.
DROP TRIGGER IF EXISTS sessions_auth_changed ON sessions;--> statement-breakpoint
CREATE TRIGGER sessions_auth_changed AFTER UPDATE OF id, user_id, expires_at OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();
