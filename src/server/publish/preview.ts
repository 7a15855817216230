import { eq } from 'drizzle-orm';
import type { SiteContent } from '../content/site-content';
import type { Db } from '../db/client';
import { insights } from '../db/schema';

type InsightContent = SiteContent['insights'][number];

/** A draft or published insight by slug, in the shape a build reads it (dates as ISO strings). */
export async function previewInsight(db: Db, slug: string): Promise<InsightContent | null> {
  if (!/^[a-z0-9-]{1,200}$/.test(slug)) return null;
  const [row] = await db.select().from(insights).where(eq(insights.slug, slug)).limit(1);
  return row ? (JSON.parse(JSON.stringify(row)) as InsightContent) : null;
}
