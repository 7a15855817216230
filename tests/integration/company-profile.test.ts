import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentChange } from '#server/content/changes.ts';
import { auditLog, companyProfile } from '#server/db/schema/index.ts';
import { migrationsDir } from '#server/paths.ts';
import { watchExpiries } from '#server/services/expiry-watch.ts';
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

describe('[API][ADMIN][COMPANY] compliance statuses and the name beside the logo', () => {
  const version = async () => (await stored()).version;

  it('each compliance statement has a status: Yes, Pending, On request or No; a bare text takes the one its words imply', async () => {
    const res = await json(
      await t.as(t.admin, 'PATCH', PATH, {
        complianceStatements: [
          { text: 'TAA / BAA Compliant', status: 'yes' },
          { text: 'ITAR registration', status: 'no' },
          'GSA MAS schedule pending',
          'Country of origin certificates available upon request',
          'FAR Part 12/13 Compliant',
        ],
        version: await version(),
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.complianceStatements).toEqual([
      { text: 'TAA / BAA Compliant', status: 'yes' },
      { text: 'ITAR registration', status: 'no' },
      { text: 'GSA MAS schedule pending', status: 'pending' },
      { text: 'Country of origin certificates available upon request', status: 'on-request' },
      { text: 'FAR Part 12/13 Compliant', status: 'yes' },
    ]);
    expect((await stored()).complianceStatements).toEqual(res.body.complianceStatements);
  });

  it.each([
    [[{ text: 'TAA', status: 'maybe' }], 'Status must be Yes, Pending, On request or No'],
    [[{ text: '', status: 'yes' }], 'Statement is required'],
    [[{ status: 'yes' }], 'Statement is required'],
    [[42], 'Statement is required'],
    [[{ text: 'x'.repeat(301), status: 'yes' }], 'Must be at most 300 characters'],
  ])('a bad statement %j is refused (400 %s) and changes nothing', async (complianceStatements, message) => {
    const before = await stored();
    const res = await json(await t.as(t.admin, 'PATCH', PATH, { complianceStatements, version: before.version }));
    expect(res).toMatchObject({ status: 400, body: { message } });
    expect(await stored()).toEqual(before);
  });

  it('the name beside the logo is off until the owner turns it on', async () => {
    expect((await stored()).showNameWithLogo).toBe(false);
    const res = await json(await t.as(t.admin, 'PATCH', PATH, { showNameWithLogo: true, version: await version() }));
    expect(res).toMatchObject({ status: 200, body: { showNameWithLogo: true } });
    expect((await json(await t.as(t.admin, 'PATCH', PATH, { showNameWithLogo: 'yes', version: await version() }))).status).toBe(400);
  });

  it('[UPGRADE] an install from before statuses: each bare statement takes the status its words imply (the migration)', async () => {
    const file = fs.readFileSync(path.join(migrationsDir(), '0012_compliance_status_header_name.sql'), 'utf8');
    const update = file.split('--> statement-breakpoint').find((stmt) => stmt.includes('UPDATE "company_profile"'))!;
    await t.s.db.execute(
      sql`update company_profile set compliance_statements = ${JSON.stringify([
        'FAR Part 12/13 Compliant',
        'GSA MAS schedule PENDING',
        'Country of Origin Certification Available Upon Request',
        'Certificates on request',
        'Spending controls in place',
      ])}::jsonb`,
    );
    await t.s.db.execute(sql.raw(update));
    expect((await stored()).complianceStatements).toEqual([
      { text: 'FAR Part 12/13 Compliant', status: 'yes' },
      { text: 'GSA MAS schedule PENDING', status: 'pending' },
      { text: 'Country of Origin Certification Available Upon Request', status: 'on-request' },
      { text: 'Certificates on request', status: 'on-request' },
      { text: 'Spending controls in place', status: 'yes' },
    ]);
    // Applied again (already objects), nothing changes.
    await t.s.db.execute(sql.raw(update));
    expect((await stored()).complianceStatements).toHaveLength(5);
  });
});

describe('[COMPANY] a certification or SAM registration past its date: the pages are built again', () => {
  it('the first look only takes note; a date passing asks for a publish once; an edit that changes what has passed asks again', async () => {
    const changes: ContentChange[] = [];
    // The publish request the watch is given: here, one that notes each change.
    const publish = async (c: ContentChange) => void changes.push(c);
    await t.s.db.update(companyProfile).set({
      certifications: [
        { name: 'WOSB', identifier: null, expiresOn: '2030-03-31' },
        { name: 'ISO 9001', identifier: null, expiresOn: '2031-01-15' },
      ],
      samActive: true,
      samExpiresOn: '2030-06-30',
    });
    await t.s.db.execute(sql`delete from app_meta where key = 'job:expiry-watch'`);
    const at = (day: string) => ({ now: new Date(`${day}T12:00:00Z`) });
    expect(await watchExpiries(t.s.db, publish, at('2030-03-31'))).toBeNull();
    expect(await watchExpiries(t.s.db, publish, at('2030-03-31'))).toBeNull();
    expect(changes).toEqual([]);
    // The day after the WOSB certificate's date: one publish, not one per pass.
    expect(await watchExpiries(t.s.db, publish, at('2030-04-01'))).toEqual({ passed: '2030-03-31' });
    expect(await watchExpiries(t.s.db, publish, at('2030-04-02'))).toBeNull();
    expect(changes).toEqual([{ kind: 'company-profile', id: null, action: 'updated' }]);
    // The SAM registration's date passes too.
    expect(await watchExpiries(t.s.db, publish, at('2030-07-01'))).toEqual({ passed: '2030-06-30' });
    // Not marked active: its date does not count.
    await t.s.db.update(companyProfile).set({ samActive: false });
    expect(await watchExpiries(t.s.db, publish, at('2030-07-02'))).toEqual({ passed: '2030-03-31' });
    expect(changes).toHaveLength(3);
  });
});
