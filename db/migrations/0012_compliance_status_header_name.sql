ALTER TABLE "company_profile" ADD COLUMN "show_name_with_logo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Each compliance statement gains a status (Yes, Pending, On request, No): a statement stored as
-- bare text takes the one its words imply ("... pending", "... upon request"), else Yes, as
-- impliedComplianceStatus in src/shared/schemas/company-profile.ts does.
UPDATE "company_profile" SET "compliance_statements" = (
  SELECT coalesce(jsonb_agg(
    CASE WHEN jsonb_typeof(s) = 'string' THEN jsonb_build_object(
      'text', s #>> '{}',
      'status', CASE
        WHEN (s #>> '{}') ~* '\mpending\M' THEN 'pending'
        WHEN (s #>> '{}') ~* '\m(up)?on request\M' THEN 'on-request'
        ELSE 'yes' END)
    ELSE s END ORDER BY n), '[]'::jsonb)
  FROM jsonb_array_elements("compliance_statements") WITH ORDINALITY AS t(s, n)
);
