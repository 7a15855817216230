import { describe, expect, it } from 'vitest';
import { impliedComplianceStatus } from '#shared/compliance.ts';
import { STARTING_COMPANY, currentCertifications, lastExpiry, samStatus, shownCompliance, today } from '#shared/company.ts';

/* What the pages say of dated registrations and compliance rows (src/shared/company.ts). */

const company = {
  ...STARTING_COMPANY,
  samActive: true,
  samExpiresOn: '2030-06-30',
  certifications: [
    { name: 'WOSB', identifier: null, expiresOn: '2030-03-31' },
    { name: 'HUBZone', identifier: null, expiresOn: null },
  ],
};

describe('[COMPANY] dates: current through the day itself, not after', () => {
  it('a certification is current on its expiry day and gone the day after; one without a date always shows', () => {
    expect(currentCertifications(company, '2030-03-31').map((c) => c.name)).toEqual(['WOSB', 'HUBZone']);
    expect(currentCertifications(company, '2030-04-01').map((c) => c.name)).toEqual(['HUBZone']);
  });

  it('the SAM registration is active through its renewal date; not marked active, never', () => {
    expect(samStatus(company, '2030-06-30')).toEqual({ through: 'Jun 30, 2030' });
    expect(samStatus(company, '2030-07-01')).toBeNull();
    expect(samStatus({ ...company, samExpiresOn: null }, '2099-01-01')).toEqual({ through: null });
    expect(samStatus({ ...company, samActive: false }, '2030-01-01')).toBeNull();
  });

  it('the latest date passed is what the pages are built from', () => {
    expect(lastExpiry(company, '2030-03-31')).toBeNull();
    expect(lastExpiry(company, '2030-04-01')).toBe('2030-03-31');
    expect(lastExpiry(company, '2031-01-01')).toBe('2030-06-30');
    expect(lastExpiry({ ...company, samActive: false }, '2031-01-01')).toBe('2030-03-31');
  });

  it('today is the UTC day', () => {
    expect(today(new Date('2030-04-01T02:00:00+05:00'))).toBe('2030-03-31');
  });
});

describe('[COMPANY] compliance statuses', () => {
  it.each([
    ['GSA MAS schedule pending', 'pending'],
    ['Pending: GSA MAS', 'pending'],
    ['Country of Origin Certification Available Upon Request', 'on-request'],
    ['Test reports on request', 'on-request'],
    ['Spending controls', 'yes'],
    ['Questions answered promptly', 'yes'],
    ['TAA / BAA Compliant', 'yes'],
  ] as const)('%j reads as %s', (text, status) => {
    expect(impliedComplianceStatus(text)).toBe(status);
  });

  it('a new install: four Yes and one On request; No rows are left out', () => {
    expect(STARTING_COMPANY.complianceStatements.map((c) => c.status)).toEqual(['yes', 'yes', 'yes', 'yes', 'on-request']);
    const rows = [
      { text: 'A', status: 'yes' },
      { text: 'B', status: 'no' },
    ] as const;
    expect(shownCompliance({ ...company, complianceStatements: [...rows] }).map((c) => c.text)).toEqual(['A']);
  });
});
