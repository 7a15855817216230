ALTER TABLE "contact_submission" ADD COLUMN "message_id" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "in_reply_to" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "references" text;