ALTER TABLE "content_block" ADD COLUMN "image_alt" text;--> statement-breakpoint
ALTER TABLE "header_content" ADD COLUMN "background_image_alt" text;--> statement-breakpoint
ALTER TABLE "service" ADD COLUMN "image_alt" text;--> statement-breakpoint
ALTER TABLE "insight" ADD COLUMN "featured_image_alt" text;--> statement-breakpoint
ALTER TABLE "upload" ADD COLUMN "width" integer;--> statement-breakpoint
ALTER TABLE "upload" ADD COLUMN "height" integer;--> statement-breakpoint
ALTER TABLE "upload" ADD COLUMN "variant_widths" integer[];