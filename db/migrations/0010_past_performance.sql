CREATE TABLE "past_performance" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer" text NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"period_start" text NOT NULL,
	"period_end" text,
	"contract_type" text,
	"value" bigint,
	"show_value" boolean DEFAULT false NOT NULL,
	"naics_code" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "past_performance_display_order_nonneg" CHECK ("past_performance"."display_order" >= 0),
	CONSTRAINT "past_performance_period" CHECK ("past_performance"."period_end" is null or "past_performance"."period_end" >= "past_performance"."period_start")
);
--> statement-breakpoint
ALTER TABLE "company_profile" ADD COLUMN "figures_confirmed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "company_profile" ADD COLUMN "founder_name" text;--> statement-breakpoint
ALTER TABLE "company_profile" ADD COLUMN "founder_title" text;--> statement-breakpoint
ALTER TABLE "company_profile" ADD COLUMN "founder_photo" text;--> statement-breakpoint
ALTER TABLE "company_profile" ADD COLUMN "founder_photo_alt" text;--> statement-breakpoint
ALTER TABLE "company_profile" ADD COLUMN "founder_story" text;--> statement-breakpoint
CREATE INDEX "past_performance_active_idx" ON "past_performance" USING btree ("is_active","display_order");--> statement-breakpoint
-- An existing install whose owner changed any figure from the starting sample has stood by them:
-- they stay on the home page. Figures still as the sample are hidden until she confirms them in
-- the Company tab (the setup checklist asks her to).
UPDATE "company_profile" SET "figures_confirmed" = true
WHERE "figures" <> '{"activeContracts":"24","supplierPerformance":"92%","budgetUtilisation":"67%","onTimeDelivery":"98%","budgetManaged":"$2.4M+","costSavings":"15%","contractsCompleted":"500+"}'::jsonb;
