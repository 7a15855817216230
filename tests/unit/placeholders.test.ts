import { describe, expect, it } from 'vitest';
import { FALLBACK_CONTACT_INFO } from '#shared/fallbacks.ts';
import { isPlaceholderAddress, isPlaceholderEmail, isPlaceholderPhone } from '#shared/placeholders.ts';

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
