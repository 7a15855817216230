import { describe, expect, it } from 'vitest';
import { FALLBACK_CONTACT_INFO } from '#shared/fallbacks.ts';
import { isPlaceholderAddress, isPlaceholderEmail, isPlaceholderPhone, withoutPlaceholders } from '#shared/placeholders.ts';
import { publicContact } from '#shared/seo.ts';

describe('[LEADS] placeholder contact details', () => {
  it('e-mail addresses at reserved domains are placeholders, real domains are not', () => {
    for (const a of [
      'info@example.com',
      'INFO@Example.COM',
      'sales@mail.example.net',
      'a@example.org',
      'a@shop.example',
      'a@acme.test',
      'a@x.invalid',
      'root@localhost',
      'a@app.localhost',
      'a@example.com.',
    ])
      expect(isPlaceholderEmail(a), a).toBe(true);
    for (const a of ['jane@agency.gov', 'owner@examples.com', 'a@example.co', 'a@notexample.com', 'a@testing.io', 'a@contest', '', null])
      expect(isPlaceholderEmail(a), String(a)).toBe(false);
  });

  it('fictional 555-01xx numbers and the unassigned area code 555 are placeholders', () => {
    for (const p of ['(555) 010-0100', '555-0100', '555 0199', '(202) 555-0142', '+1 202 555 0100', '1-555-123-4567'])
      expect(isPlaceholderPhone(p), p).toBe(true);
    for (const p of ['(202) 555-0200', '(202) 555-1234', '(703) 010-0100', '+44 20 7946 0000', '555', '', null])
      expect(isPlaceholderPhone(p), String(p)).toBe(false);
  });

  it('the seeded address is a placeholder however it is spaced; another is not', () => {
    expect(isPlaceholderAddress(FALLBACK_CONTACT_INFO.address)).toBe(true);
    expect(isPlaceholderAddress('  Suite 100 \r\n  Washington, DC 20001 ')).toBe(true);
    expect(isPlaceholderAddress('1200 First St NE, Suite 100\nWashington, DC 20002')).toBe(false);
    expect(isPlaceholderAddress('')).toBe(false);
  });

  it('the seeded contact details are all placeholders', () => {
    expect(isPlaceholderEmail(FALLBACK_CONTACT_INFO.email)).toBe(true);
    expect(isPlaceholderPhone(FALLBACK_CONTACT_INFO.phone)).toBe(true);
  });
});

describe('[LEADS] public contact details without placeholders', () => {
  const record = {
    email: 'info@example.com',
    phone: '(555) 010-0100',
    address: FALLBACK_CONTACT_INFO.address,
    businessHours: 'Mon–Fri',
    displayEmail: true,
    displayPhone: true,
    displayAddress: true,
    displayBusinessHours: true,
  };

  it('a placeholder field is not displayed and its value is left out; real ones and the hours stay', () => {
    expect(withoutPlaceholders(record)).toEqual({
      ...record,
      email: '',
      phone: '',
      address: '',
      displayEmail: false,
      displayPhone: false,
      displayAddress: false,
    });
    const real = { ...record, email: 'sales@harbor-federal.com', phone: '(202) 290-0147', address: '1200 First St NE' };
    expect(withoutPlaceholders(real)).toEqual(real);
  });

  it('the public e-mail falls back to the procurement desk, never to a placeholder', () => {
    const hidden = withoutPlaceholders(record);
    expect(publicContact(hidden, { procurementEmail: null })).toEqual({});
    expect(publicContact(hidden, { procurementEmail: 'bids@example.com' })).toEqual({});
    expect(publicContact(hidden, { procurementEmail: 'bids@harbor-federal.com' })).toEqual({ email: 'bids@harbor-federal.com' });
  });
});
