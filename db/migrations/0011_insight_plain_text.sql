ALTER TABLE "insight_search" ADD COLUMN "plain_text" text;--> statement-breakpoint
-- The plain text is the app's to write (Markdown is rendered in JavaScript): a change of the text
-- that does not go through the app leaves it empty, and the next search writes it again.
CREATE OR REPLACE FUNCTION "insight_search_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "insight_search" ("insight_id", "document")
  VALUES (
    NEW.id,
    setweight(to_tsvector('english'::regconfig, NEW.title), 'A') ||
    setweight(to_tsvector('english'::regconfig, NEW.excerpt), 'B') ||
    setweight(to_tsvector('english'::regconfig, NEW.content || ' ' || NEW.author_name), 'C')
  )
  ON CONFLICT (insight_id) DO UPDATE SET document = EXCLUDED.document, plain_text = NULL;
  RETURN NULL;
END;
$$;
