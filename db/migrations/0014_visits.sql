CREATE TABLE "page_view" (
	"id" serial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"path" text NOT NULL,
	"referrer" text,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"device" text NOT NULL,
	"visitor" text NOT NULL,
	"views" integer DEFAULT 1 NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visit_salt" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visit_total" (
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "visit_total_day_dimension_key_pk" PRIMARY KEY("day","dimension","key")
);
--> statement-breakpoint
ALTER TABLE "contact_submission" ADD COLUMN "visit_landing" text;--> statement-breakpoint
ALTER TABLE "contact_submission" ADD COLUMN "visit_referrer" text;--> statement-breakpoint
ALTER TABLE "contact_submission" ADD COLUMN "visit_source" text;--> statement-breakpoint
ALTER TABLE "contact_submission" ADD COLUMN "visit_medium" text;--> statement-breakpoint
ALTER TABLE "contact_submission" ADD COLUMN "visit_campaign" text;--> statement-breakpoint
CREATE INDEX "page_view_visitor_idx" ON "page_view" USING btree ("day","visitor","id");