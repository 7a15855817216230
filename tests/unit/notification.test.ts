import { describe, expect, it } from 'vitest';
import { buyerTypeLabel, formatDueDate, solicitationLabel } from '#shared/buyer-facts.ts';
import { renderNotification, renderSample, type InquiryFacts } from '#shared/email/render.ts';
import { DEFAULT_TEMPLATE } from '#shared/fallbacks.ts';

const ctx = {
  siteName: 'Sterling Federal',
  siteUrl: 'https://sterling.example.gov',
  adminUrl: 'https://sterling.example.gov/admin#contacts',
  sender: { name: 'Sterling Federal LLC', email: 'hello@sterling.gov', phone: null, website: 'https://sterling.example.gov' },
};
const look = {
  ...DEFAULT_TEMPLATE,
  footerText: 'Thank you for contacting us. We will be in touch soon.',
  signatureName: 'The Sterling Team',
  signatureEmail: 'hello@sterling.gov',
  signatureWebsite: 'https://sterling.gov',
};
const dana: InquiryFacts = {
  name: 'Dana Smith',
  email: 'dana.smith@va.gov',
  company: 'VA',
  phone: null,
  message: 'Forty TAA-compliant laptops for three clinics.',
  buyerType: 'government',
  solicitation: '36C10X26Q0123',
  responseDue: '2026-12-03',
  createdAt: '2026-11-27T14:00:00Z',
};

describe('[LEADS][MAIL] the staff notification', () => {
  it('the subject carries the RFQ number and the due date', () => {
    expect(renderNotification(look, dana, ctx).subject).toBe('New inquiry from Dana Smith (VA): RFQ 36C10X26Q0123, due Dec 3');
    // The year only when it is not the year the inquiry arrived.
    expect(renderNotification(look, { ...dana, responseDue: '2027-01-15' }, ctx).subject).toBe(
      'New inquiry from Dana Smith (VA): RFQ 36C10X26Q0123, due Jan 15, 2027',
    );
    expect(renderNotification(look, { ...dana, solicitation: null }, ctx).subject).toBe('New inquiry from Dana Smith (VA): due Dec 3');
    expect(renderNotification(look, { ...dana, responseDue: null }, ctx).subject).toBe(
      'New inquiry from Dana Smith (VA): RFQ 36C10X26Q0123',
    );
    expect(renderNotification(look, { ...dana, solicitation: 'RFP W912DY-26-R-0042' }, ctx).subject).toBe(
      'New inquiry from Dana Smith (VA): RFP W912DY-26-R-0042, due Dec 3',
    );
    expect(renderNotification(look, { ...dana, solicitation: null, responseDue: null, buyerType: null }, ctx).subject).toBe(
      'New inquiry from Dana Smith (VA)',
    );
  });

  it('[SECURITY][MAIL]: an encoded word typed as a name or company is shown as typed, never decoded by the mail program', () => {
    const subject = renderNotification(
      look,
      { ...dana, name: '=?utf-8?b?VXJnZW50OiB3aXJlIGZ1bmRz?=', company: '=?ISO-8859-1?Q?Bank?=', solicitation: null, responseDue: null },
      ctx,
    ).subject;
    expect(subject).toBe('New inquiry from = ?utf-8?b?VXJnZW50OiB3aXJlIGZ1bmRz?= (= ?ISO-8859-1?Q?Bank?=)');
    expect(subject).not.toContain('=?');
  });

  it('the subject stays one line of at most 200 characters, and a long name gives way before the RFQ', () => {
    const subject = renderNotification(
      look,
      { ...dana, name: `Dana\r\nBcc: x@y.z ${'n'.repeat(200)}`, company: 'c'.repeat(200), solicitation: `A\nB${'9'.repeat(98)}` },
      ctx,
    ).subject;
    expect(subject).not.toMatch(/[\r\n]/);
    expect(subject.length).toBeLessThanOrEqual(200);
    expect(subject).toMatch(/^New inquiry from Dana Bcc: x@y\.z n+…: RFQ A B9{98}, due Dec 3$/);
  });

  it('the body lists the buyer fields, then ends with the inquiry and the staff links', () => {
    const mail = renderNotification(look, dana, ctx);
    expect(mail.text).toContain(
      [
        'Name: Dana Smith',
        'Email: dana.smith@va.gov',
        'Company: VA',
        'Phone: —',
        'Buyer type: Government buyer',
        'Solicitation or RFQ: 36C10X26Q0123',
        'Response due: Thu, Dec 3, 2026',
      ].join('\n'),
    );
    expect(mail.text.trimEnd().split('\n').slice(-5)).toEqual([
      'Message:',
      'Forty TAA-compliant laptops for three clinics.',
      '',
      'Answer it in the back office: https://sterling.example.gov/admin#contacts',
      'Or reply to this e-mail: your reply goes to Dana Smith at dana.smith@va.gov.',
    ]);
    expect(mail.html).toContain('<a href="https://sterling.example.gov/admin#contacts" style="color:#0d9488">Open the inbox</a>');
    expect(mail.html).toContain('Government buyer');
    expect(mail.html).toContain('Thu, Dec 3, 2026');
  });

  it('has no visitor-facing line: no footer, no signature', () => {
    const mail = renderNotification(look, dana, ctx);
    for (const part of [mail.text, mail.html]) {
      expect(part).not.toContain('Thank you for contacting us');
      expect(part).not.toContain('The Sterling Team');
      expect(part).not.toContain('hello@sterling.gov');
      expect(part).not.toContain('https://sterling.gov');
    }
    expect(mail.text).not.toContain('-- ');
    // The template's look still applies.
    expect(mail.html).toContain(`background:${look.headerBgColor}`);
  });

  it('missing buyer fields read as a dash', () => {
    const mail = renderNotification(look, { ...dana, buyerType: null, solicitation: null, responseDue: null }, ctx);
    expect(mail.text).toContain('Buyer type: —\nSolicitation or RFQ: —\nResponse due: —');
  });

  it('the Templates tab preview is the notification as sent, with sample buyer fields', () => {
    const sample = renderSample(look, 'contact_notification', ctx);
    expect(sample.subject).toBe('New inquiry from Jane Buyer (Department of Veterans Affairs): RFQ 36C10X26Q0123, due Mar 20');
    expect(sample.text).toContain('Buyer type: Government buyer');
    expect(sample.text).not.toContain(look.footerText);
    // The reply keeps its footer and signature (the company's): it is written for the visitor.
    const reply = renderSample(look, 'contact_response', ctx);
    expect(reply.text).toContain(look.footerText);
    expect(reply.html).toContain('Sterling Federal LLC');
  });
});

describe('[LEADS] buyer facts in words', () => {
  it.each([
    ['government', 'Government buyer'],
    ['manufacturer', 'Manufacturer'],
    ['consulting', 'Consulting client'],
    ['other', 'Other'],
    ['legacy', 'legacy'],
    [null, null],
    ['', null],
    ['toString', 'toString'],
  ])('%j → %j', (value, label) => expect(buyerTypeLabel(value)).toBe(label));

  it('formats a day without any time zone moving it', () => {
    expect(formatDueDate('2026-12-03')).toBe('Dec 3');
    expect(formatDueDate('2026-01-01', { year: true, weekday: true })).toBe('Thu, Jan 1, 2026');
    expect(formatDueDate('not a day')).toBe('not a day');
  });

  it('names a bare number as an RFQ, and keeps a number that says what it is', () => {
    expect(solicitationLabel('36C10X26Q0123')).toBe('RFQ 36C10X26Q0123');
    expect(solicitationLabel('rfq 36C10X26Q0123')).toBe('rfq 36C10X26Q0123');
    expect(solicitationLabel('Solicitation W912')).toBe('Solicitation W912');
    expect(solicitationLabel('RFQUOTE-1')).toBe('RFQ RFQUOTE-1');
  });
});
