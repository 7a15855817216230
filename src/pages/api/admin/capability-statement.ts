import { requireAdmin } from '#server/auth/guard.ts';
import { statementInput } from '#server/capability/statement-input.ts';
import { statementLeftOut } from '#server/capability/statement-pdf.ts';
import { snapshotContent } from '#server/content/site-content.ts';
import { currentSiteUrl } from '#server/env.ts';
import { getDb, type Db } from '#server/db/client.ts';
import { defineHandler, json, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { getCapabilityStatementSetting, listDocuments } from '#server/content/public-content.ts';
import { setCapabilityStatementSetting } from '#server/services/capability-statement.ts';
import { GENERATED_STATEMENT_PATH, usesGeneratedStatement } from '#shared/documents.ts';
import { capabilityStatementSettingSchema } from '#shared/schemas/capability-statement.ts';

export const prerender = false;

/**
 * The stored choice (null until set), whether the site offers the generated statement, where it
 * is, whether an uploaded capability statement is active (without one, turning the generated
 * one off leaves buyers nothing to download), and what the generated one leaves out to stay one
 * page ("2 older past-performance entries").
 */
async function answer(db: Db) {
  const { useGenerated } = await getCapabilityStatementSetting(db);
  const documents = await listDocuments(db, { activeOnly: true });
  return {
    useGenerated,
    inUse: usesGeneratedStatement(documents, useGenerated),
    url: GENERATED_STATEMENT_PATH,
    uploadedActive: documents.some((d) => d.category === 'capability'),
    leftOut: await statementLeftOut((await statementInput(await snapshotContent(db), currentSiteUrl())).input),
  };
}

/** The Documents tab's "Use generated statement". */
export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await answer(await getDb()));
});

/** `{ useGenerated }`; audited, and publishes the site. */
export const PUT = defineHandler(async ({ locals, request }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const setting = await readBody(request, capabilityStatementSettingSchema);
  const db = await getDb();
  await setCapabilityStatementSetting(db, setting, actor, locals.publish);
  return json(await answer(db));
});
