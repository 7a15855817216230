CREATE TABLE "insight_search" (
	"insight_id" integer PRIMARY KEY NOT NULL,
	"document" "tsvector" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "insight_search" ADD CONSTRAINT "insight_search_insight_id_insight_id_fk" FOREIGN KEY ("insight_id") REFERENCES "public"."insight"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "insight_search_document_idx" ON "insight_search" USING gin ("document");--> statement-breakpoint
-- The document of an insight, written by the database on every insert and every change of the
-- fields it is made of (src/server/services/insight-search.ts reads it).
CREATE FUNCTION "insight_search_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "insight_search" ("insight_id", "document")
  VALUES (
    NEW.id,
    setweight(to_tsvector('english'::regconfig, NEW.title), 'A') ||
    setweight(to_tsvector('english'::regconfig, NEW.excerpt), 'B') ||
    setweight(to_tsvector('english'::regconfig, NEW.content || ' ' || NEW.author_name), 'C')
  )
  ON CONFLICT (insight_id) DO UPDATE SET document = EXCLUDED.document;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "insight_search_on_insert" AFTER INSERT ON "insight"
  FOR EACH ROW EXECUTE FUNCTION "insight_search_refresh"();--> statement-breakpoint
CREATE TRIGGER "insight_search_on_update" AFTER UPDATE OF "title", "excerpt", "content", "author_name" ON "insight"
  FOR EACH ROW EXECUTE FUNCTION "insight_search_refresh"();--> statement-breakpoint
-- The insights there already.
INSERT INTO "insight_search" ("insight_id", "document")
SELECT id,
  setweight(to_tsvector('english'::regconfig, title), 'A') ||
  setweight(to_tsvector('english'::regconfig, excerpt), 'B') ||
  setweight(to_tsvector('english'::regconfig, content || ' ' || author_name), 'C')
FROM insight;
