ALTER TABLE "user" ADD COLUMN "signature_name" text;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "signature_title" text;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "signature_phone" text;