CREATE TYPE "public"."button_style" AS ENUM('primary', 'secondary', 'outline', 'ghost');--> statement-breakpoint
CREATE TYPE "public"."content_section" AS ENUM('intro', 'home_cta', 'about', 'about_mission', 'services_hero', 'services_overview', 'home_services');--> statement-breakpoint
CREATE TYPE "public"."document_category" AS ENUM('capability', 'onboarding', 'brochure', 'case-study', 'whitepaper', 'presentation', 'other');--> statement-breakpoint
CREATE TYPE "public"."feature_section" AS ENUM('home', 'about');--> statement-breakpoint
CREATE TYPE "public"."insight_category" AS ENUM('industry_spotlights', 'market_analysis', 'case_studies', 'research', 'expert_advice');--> statement-breakpoint
CREATE TYPE "public"."outbox_status" AS ENUM('pending', 'sending', 'sent', 'failed');--> statement-breakpoint
CREATE TYPE "public"."publish_job_status" AS ENUM('queued', 'building', 'succeeded', 'failed');--> statement-breakpoint
CREATE TYPE "public"."submission_status" AS ENUM('pending', 'in_progress', 'completed');--> statement-breakpoint
CREATE TYPE "public"."template_type" AS ENUM('contact_notification', 'contact_response');--> statement-breakpoint
CREATE TYPE "public"."upload_kind" AS ENUM('image', 'document');--> statement-breakpoint
CREATE TYPE "public"."user_role" AS ENUM('admin', 'user');--> statement-breakpoint
CREATE TABLE "account" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_code" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	"last_active_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "two_factor_challenge" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"email_code_hash" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"ip_address" text,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"username" text,
	"display_username" text,
	"role" "user_role" DEFAULT 'user' NOT NULL,
	"failed_login_count" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"two_factor_enabled" boolean DEFAULT false NOT NULL,
	"two_factor_secret" text,
	"two_factor_last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_email_unique" UNIQUE("email"),
	CONSTRAINT "user_username_unique" UNIQUE("username")
);
--> statement-breakpoint
CREATE TABLE "verification" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_block" (
	"id" serial PRIMARY KEY NOT NULL,
	"section" "content_section" NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"button_text" text,
	"background_image" text,
	"image_url" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feature" (
	"id" serial PRIMARY KEY NOT NULL,
	"section" "feature_section" DEFAULT 'home' NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"icon" text NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feature_display_order_nonneg" CHECK ("feature"."display_order" >= 0)
);
--> statement-breakpoint
CREATE TABLE "header_content" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"subtitle" text NOT NULL,
	"background_image" text NOT NULL,
	"logo_light" text NOT NULL,
	"logo_dark" text NOT NULL,
	"box_heading" text,
	"box_content" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "header_cta" (
	"id" serial PRIMARY KEY NOT NULL,
	"button_text" text NOT NULL,
	"button_link" text NOT NULL,
	"button_style" "button_style" DEFAULT 'primary' NOT NULL,
	"is_visible" boolean DEFAULT true NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"icon" text NOT NULL,
	"image_src" text,
	"detailed_description" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_display_order_nonneg" CHECK ("service"."display_order" >= 0)
);
--> statement-breakpoint
CREATE TABLE "insight" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"slug" varchar(200) NOT NULL,
	"category" "insight_category" DEFAULT 'industry_spotlights' NOT NULL,
	"excerpt" text NOT NULL,
	"content" text NOT NULL,
	"is_published" boolean DEFAULT false NOT NULL,
	"publication_date" timestamp with time zone,
	"read_minutes" integer DEFAULT 5 NOT NULL,
	"author_name" text NOT NULL,
	"author_title" text NOT NULL,
	"featured_image" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"related_insights" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "insight_slug_unique" UNIQUE("slug"),
	CONSTRAINT "insight_read_minutes_min" CHECK ("insight"."read_minutes" >= 1),
	CONSTRAINT "insight_slug_format" CHECK ("insight"."slug" ~ '^[a-z0-9-]+$')
);
--> statement-breakpoint
CREATE TABLE "document" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"category" "document_category" DEFAULT 'capability' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"file_path" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" bigint,
	"file_type" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_display_order_nonneg" CHECK ("document"."display_order" >= 0)
);
--> statement-breakpoint
CREATE TABLE "upload" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" "upload_kind" NOT NULL,
	"storage" text NOT NULL,
	"key" text NOT NULL,
	"url" text,
	"original_name" text,
	"content_type" text,
	"size" bigint,
	"upload_token_hash" text,
	"expires_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"uploaded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upload_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "contact_info" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"address" text NOT NULL,
	"business_hours" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"display_email" boolean DEFAULT true NOT NULL,
	"display_phone" boolean DEFAULT true NOT NULL,
	"display_address" boolean DEFAULT true NOT NULL,
	"display_business_hours" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_response" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"message" text NOT NULL,
	"sent_by" text,
	"outbox_id" integer,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_submission" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"company" text,
	"phone" text,
	"message" text NOT NULL,
	"status" "submission_status" DEFAULT 'pending' NOT NULL,
	"is_spam" boolean DEFAULT false NOT NULL,
	"spam_reason" text,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_template" (
	"id" serial PRIMARY KEY NOT NULL,
	"template_type" "template_type" DEFAULT 'contact_response' NOT NULL,
	"name" text NOT NULL,
	"header_bg_color" text NOT NULL,
	"header_text_color" text NOT NULL,
	"content_bg_color" text NOT NULL,
	"content_text_color" text NOT NULL,
	"accent_color" text NOT NULL,
	"font_family" text NOT NULL,
	"company_logo" text,
	"footer_text" text NOT NULL,
	"signature_name" text NOT NULL,
	"signature_email" text NOT NULL,
	"signature_website" text NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"reply_to" text,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text,
	"status" "outbox_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"message_id" text,
	"sent_at" timestamp with time zone,
	"submission_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_id" text,
	"actor_name" text,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"before" jsonb,
	"after" jsonb,
	"ip_address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publish_attempt" (
	"id" serial PRIMARY KEY NOT NULL,
	"job_id" integer NOT NULL,
	"attempt" integer NOT NULL,
	"status_code" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publish_job" (
	"id" serial PRIMARY KEY NOT NULL,
	"status" "publish_job_status" DEFAULT 'queued' NOT NULL,
	"mode" text NOT NULL,
	"reason" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"duration_ms" integer,
	"release_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_code" ADD CONSTRAINT "recovery_code_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "two_factor_challenge" ADD CONSTRAINT "two_factor_challenge_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload" ADD CONSTRAINT "upload_uploaded_by_user_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_response" ADD CONSTRAINT "contact_response_submission_id_contact_submission_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."contact_submission"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_response" ADD CONSTRAINT "contact_response_sent_by_user_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_submission_id_contact_submission_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."contact_submission"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publish_attempt" ADD CONSTRAINT "publish_attempt_job_id_publish_job_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."publish_job"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_user_idx" ON "account" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "recovery_code_user_idx" ON "recovery_code" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "session_user_idx" ON "session" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "content_block_section_idx" ON "content_block" USING btree ("section","is_active");--> statement-breakpoint
CREATE INDEX "feature_section_idx" ON "feature" USING btree ("section","is_active","display_order");--> statement-breakpoint
CREATE UNIQUE INDEX "header_cta_one_active" ON "header_cta" USING btree ("is_active") WHERE "header_cta"."is_active";--> statement-breakpoint
CREATE INDEX "insight_published_idx" ON "insight" USING btree ("is_published","publication_date");--> statement-breakpoint
CREATE INDEX "upload_token_idx" ON "upload" USING btree ("upload_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "contact_info_one_active" ON "contact_info" USING btree ("is_active") WHERE "contact_info"."is_active";--> statement-breakpoint
CREATE INDEX "contact_response_submission_idx" ON "contact_response" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "contact_submission_created_idx" ON "contact_submission" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "email_template_one_active_per_type" ON "email_template" USING btree ("template_type") WHERE "email_template"."is_active";--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "publish_job_status_idx" ON "publish_job" USING btree ("status","requested_at");