ALTER TABLE "company_profile" ADD COLUMN "contract_vehicles" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "company_profile" ADD COLUMN "psc_codes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "company_profile" ADD COLUMN "contact_person_email" text;--> statement-breakpoint
ALTER TABLE "company_profile" ADD COLUMN "contact_person_phone" text;