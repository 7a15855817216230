import { eq } from 'drizzle-orm';
import type { Signature } from '#shared/schemas/signature.ts';
import type { Db, Tx } from '../db/client';
import { users } from '../db/schema';
import { recordAudit, type Actor } from './audit';

/** An administrator's own signature (every field null when none is set). */
export async function getSignature(conn: Db | Tx, userId: string): Promise<Signature> {
  const [row] = await conn
    .select({ name: users.signatureName, title: users.signatureTitle, phone: users.signaturePhone })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? { name: null, title: null, phone: null };
}

/** Replaces the signed-in administrator's own signature (never anyone else's), recorded in the Activity log. */
export async function saveSignature(db: Db, actor: Actor, input: Signature): Promise<Signature> {
  return db.transaction(async (tx) => {
    const before = await getSignature(tx, actor.id);
    await tx
      .update(users)
      .set({ signatureName: input.name, signatureTitle: input.title, signaturePhone: input.phone })
      .where(eq(users.id, actor.id));
    await recordAudit(tx, actor, {
      action: 'update',
      entity: 'signature',
      entityId: actor.id,
      before,
      after: input,
      subject: actor.username,
    });
    return input;
  });
}
