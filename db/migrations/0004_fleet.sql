CREATE TABLE "app_instance" (
	"id" text PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"content_hash" text,
	"release_id" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "publish_job" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "publish_job" ADD COLUMN "content" text;