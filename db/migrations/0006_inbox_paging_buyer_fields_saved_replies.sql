CREATE TABLE "saved_reply" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_submission" ADD COLUMN "buyer_type" text;--> statement-breakpoint
ALTER TABLE "contact_submission" ADD COLUMN "solicitation" text;--> statement-breakpoint
ALTER TABLE "contact_submission" ADD COLUMN "response_due" date;--> statement-breakpoint
ALTER TABLE "contact_submission" ADD COLUMN "held_for_digest" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "contact_submission_view_idx" ON "contact_submission" USING btree ("is_spam","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "contact_submission_status_idx" ON "contact_submission" USING btree ("is_spam","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "contact_submission_digest_idx" ON "contact_submission" USING btree ("held_for_digest") WHERE "contact_submission"."held_for_digest";--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DO $$
DECLARE ext_schema text;
BEGIN
  -- The operator class lives where the extension was installed (an existing install may have put it anywhere).
  SELECT n.nspname INTO ext_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
  EXECUTE format(
    'CREATE INDEX IF NOT EXISTS contact_submission_search_idx ON contact_submission USING gin ((name || '' '' || email || '' '' || coalesce(company, '''') || '' '' || coalesce(phone, '''') || '' '' || coalesce(solicitation, '''') || '' '' || message) %I.gin_trgm_ops)',
    ext_schema
  );
END $$;
