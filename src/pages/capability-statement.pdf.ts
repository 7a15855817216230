import type { APIRoute } from 'astro';
import { capabilityStatementPdf } from '#server/capability/statement-pdf.ts';
import { statementInput } from '#server/capability/statement-input.ts';
import { loadSiteContent } from '#server/content/site-content.ts';

/**
 * The capability statement written from the site's own data: rendered into each release by the
 * publisher (only when something it reads changed), never for a visitor's request.
 */
export const GET: APIRoute = async ({ site, locals }) => {
  const content = await loadSiteContent(locals);
  const { input, createdAt, website } = await statementInput(content, String(site ?? 'http://localhost:4321'));
  const pdf = await capabilityStatementPdf(input, { website, createdAt });
  return new Response(new Uint8Array(pdf), { headers: { 'content-type': 'application/pdf' } });
};
