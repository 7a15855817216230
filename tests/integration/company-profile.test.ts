import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, companyProfile } from '#server/db/schema/index.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';

let t: AdminTestContext;
beforeAll(async () => {
  t = await startAdminContext();
}, 180_000);
afterAll(() => t?.s.close());

const PATH = '/api/admin/company-profile';
const json = async (res: Response) => ({ status: res.status, body: await res.json() });
const stored = async () => (await t.s.db.select().from(companyProfile))[0]!;

describe('[API][ADMIN][COMPANY] the business identity', () => {
  it.each(['GET', 'PATCH'])('%s: 401 signed out, 403 for a user account, nothing changes', async (method) => {
    const before = await stored();
    const body = method === 'PATCH' ? { uei: 'ABCDEFGH1234' } : undefined;
    expect((await t.s.request(PATH, { method, ...(body ? { json: body } : {}) })).status).toBe(401);
    expect((await t.as(t.user, method, PATH, body)).status).toBe(403);
    expect(await stored()).toEqual(before);
  });

  it('a new install starts with the names, NAICS codes and figures, and no UEI, CAGE or procurement e-mail (never a placeholder)', async () => {
    const { status, body } = await json(await t.as(t.admin, 'GET', PATH));
    expect(status).toBe(200);
    expect(body).toMatchObject({ uei: null, cageCode: null, procurementEmail: null, samActive: false, version: 1 });
    expect(body.legalName).toBeTruthy();
    expect(body.naicsCodes.map((n: { code: string }) => n.code)).toEqual(['423430', '443142', '334111', '334310', '333924', '333241']);
    expect(body.figures).toMatchObject({ onTimeDelivery: '98%', contractsCompleted: '500+' });
    expect(JSON.stringify(body)).not.toMatch(/PLACEHOLDER|example\.com/);
  });

  it('saves a subset with its version: UEI and CAGE upper-cased, figures merged key by key, an audit row written', async () => {
    const res = await json(
      await t.as(t.admin, 'PATCH', PATH, {
        uei: 'abcdefgh1234',
        cageCode: '7x2k9',
        shortName: 'Sterling',
        figures: { costSavings: '18%' },
        version: 1,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uei: 'ABCDEFGH1234', cageCode: '7X2K9', shortName: 'Sterling', version: 2 });
    expect(res.body.figures).toMatchObject({ costSavings: '18%', onTimeDelivery: '98%' });
    const audits = await t.s.db.select().from(auditLog).where(eq(auditLog.entity, 'company_profile'));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ action: 'update' });
  });

  it('a stale version is refused (409) and changes nothing', async () => {
    const before = await stored();
    const res = await json(await t.as(t.admin, 'PATCH', PATH, { shortName: 'Lost edit', version: 1 }));
    expect(res.status).toBe(409);
    expect(await stored()).toEqual(before);
  });

  it.each([
    [{ uei: 'IO1234567890' }, 'UEI must be 12 letters and digits (SAM.gov Unique Entity ID)'],
    [{ cageCode: '12' }, 'CAGE code must be 5 letters and digits'],
    [{ legalName: '' }, 'Legal name is required'],
    [{ procurementEmail: 'not-an-address' }, 'Procurement e-mail must be a valid email address'],
    [{ naicsCodes: [{ code: '12345', title: 'Short' }] }, 'NAICS code must be 6 digits'],
    [{ samExpiresOn: '2027-13-45' }, 'SAM expiry date must be a date (YYYY-MM-DD)'],
    [{ tagline: 'x'.repeat(301) }, 'Must be at most 300 characters'],
    // Hidden characters: a right-to-left override, a zero-width space, a control character.
    [{ legalName: 'Sterling \u202Ecod.exe' }, 'Must not contain control, invisible or text-direction characters'],
    [{ shortName: 'Ster\u200Bling' }, 'Must not contain control, invisible or text-direction characters'],
    [{ tagline: 'Fast\u0007 delivery' }, 'Must not contain control, invisible or text-direction characters'],
    [{ complianceStatements: ['Section 508 \u2066conformant'] }, 'Must not contain control, invisible or text-direction characters'],
    [{ founderStory: 'Founded\uFEFF in 2012' }, 'Must not contain control, invisible or text-direction characters'],
  ])('bad input %j → 400 with its message; nothing changes', async (patch, message) => {
    const before = await stored();
    const res = await json(await t.as(t.admin, 'PATCH', PATH, patch));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await stored()).toEqual(before);
  });

  it('[SECURITY] line breaks and tabs in a text are kept; only hidden characters are refused', async () => {
    const res = await json(await t.as(t.admin, 'PATCH', PATH, { description: 'First line.\nSecond\tline.' }));
    expect(res.status).toBe(200);
    expect(res.body.description).toBe('First line.\nSecond\tline.');
  });

  it('clearing the UEI stores null', async () => {
    const res = await json(await t.as(t.admin, 'PATCH', PATH, { uei: '' }));
    expect(res.status).toBe(200);
    expect(res.body.uei).toBeNull();
  });
});
