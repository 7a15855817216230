CREATE TABLE "change_stamp" (
	"name" text PRIMARY KEY NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "change_stamp" ("name") VALUES ('leads');--> statement-breakpoint
CREATE FUNCTION "bump_leads_stamp"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Once per transaction: the first change bumps the stamp, the others find it done. The row
  -- triggers are deferred to the commit, so the stamp row is locked only while committing.
  IF current_setting('procurement.leads_stamped', true) IS DISTINCT FROM '1' THEN
    UPDATE change_stamp SET n = n + 1 WHERE name = 'leads';
    PERFORM set_config('procurement.leads_stamped', '1', true);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "contact_submission_leads_stamp" AFTER INSERT OR UPDATE OR DELETE ON "contact_submission" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_leads_stamp"();--> statement-breakpoint
CREATE TRIGGER "contact_submission_leads_stamp_truncate" AFTER TRUNCATE ON "contact_submission" FOR EACH STATEMENT EXECUTE FUNCTION "bump_leads_stamp"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "contact_response_leads_stamp" AFTER INSERT OR UPDATE OR DELETE ON "contact_response" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_leads_stamp"();--> statement-breakpoint
CREATE TRIGGER "contact_response_leads_stamp_truncate" AFTER TRUNCATE ON "contact_response" FOR EACH STATEMENT EXECUTE FUNCTION "bump_leads_stamp"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "mail_outbox_leads_stamp" AFTER INSERT OR UPDATE ON "mail_outbox" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.kind = 'contact.response') EXECUTE FUNCTION "bump_leads_stamp"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "mail_outbox_leads_stamp_delete" AFTER DELETE ON "mail_outbox" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.kind = 'contact.response') EXECUTE FUNCTION "bump_leads_stamp"();--> statement-breakpoint
CREATE TRIGGER "mail_outbox_leads_stamp_truncate" AFTER TRUNCATE ON "mail_outbox" FOR EACH STATEMENT EXECUTE FUNCTION "bump_leads_stamp"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "user_leads_stamp" AFTER UPDATE OF "username" ON "user" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_leads_stamp"();
