import type { APIRoute } from 'astro';
import { capabilityStatementPdf } from '#server/capability/statement-pdf.ts';
import { statementInput } from '#server/capability/statement-input.ts';
import { getPublicDocument } from '#server/content/public-content.ts';
import { loadSiteContent, type ContentLocals } from '#server/content/site-content.ts';
import { getDb } from '#server/db/client.ts';
import { GENERATED_STATEMENT_PATH } from '#shared/documents.ts';

/**
 * The capability statement written from the site's own data: rendered into each release by the
 * publisher (only when something it reads changed), never for a visitor's request. A release
 * holds it only while the site offers it; a visitor who asks for it otherwise (an old link or
 * bookmark) is sent on to the statement the site offers now, the uploaded one, or told there is none.
 */
export const GET: APIRoute = async ({ site, locals, isPrerendered }) => {
  if (!isPrerendered && !(locals as ContentLocals).siteContent) return offeredInstead();
  const content = await loadSiteContent(locals);
  const { input, createdAt, website } = await statementInput(content, String(site ?? 'http://localhost:4321'));
  const pdf = await capabilityStatementPdf(input, { website, createdAt });
  return new Response(new Uint8Array(pdf), { headers: { 'content-type': 'application/pdf' } });
};

/** A visitor's request: a redirect to the uploaded statement the site offers, asked again each time; else 404. */
async function offeredInstead(): Promise<Response> {
  const offered = await getPublicDocument(await getDb(), 'capability');
  if (!offered || offered.filePath === GENERATED_STATEMENT_PATH) {
    return new Response('No capability statement is offered.', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  return new Response(null, { status: 302, headers: { location: offered.filePath, 'cache-control': 'no-cache' } });
}
