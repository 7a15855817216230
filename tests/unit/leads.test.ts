import { describe, expect, it } from 'vitest';
import { renderNotification, renderSample, headerText, safeHttpUrl } from '#shared/email/render.ts';
import { DEFAULT_TEMPLATE } from '#shared/fallbacks.ts';
import { csvCell, isOverdue, replyDueAt, toCsvRows } from '#shared/leads.ts';

const lead = (over: Partial<Parameters<typeof isOverdue>[0]> = {}) => ({
  name: 'Jane Buyer',
  email: 'jane@agency.gov',
  company: 'VA',
  phone: null,
  message: 'Forty laptops',
  status: 'pending',
  isSpam: false,
  createdAt: new Date(2026, 2, 2, 10, 0), // a Monday, local time
  responses: [] as unknown[],
  ...over,
});

describe('[LEADS] promised reply time', () => {
  it('is 24 hours later on a weekday, and weekends do not count', () => {
    expect(replyDueAt(new Date(2026, 2, 2, 10, 0))).toEqual(new Date(2026, 2, 3, 10, 0)); // Mon → Tue
    expect(replyDueAt(new Date(2026, 2, 6, 10, 0))).toEqual(new Date(2026, 2, 9, 10, 0)); // Fri → Mon
    expect(replyDueAt(new Date(2026, 2, 7, 12, 0))).toEqual(new Date(2026, 2, 10, 0, 0)); // Sat → end of Mon
  });

  it('overdue only without a reply, not completed, not spam, and past the due time', () => {
    const late = new Date(2026, 2, 3, 10, 1);
    expect(isOverdue(lead(), late)).toBe(true);
    expect(isOverdue(lead(), new Date(2026, 2, 3, 9, 59))).toBe(false);
    expect(isOverdue(lead({ responses: [{}] }), late)).toBe(false);
    expect(isOverdue(lead({ status: 'completed' }), late)).toBe(false);
    expect(isOverdue(lead({ isSpam: true }), late)).toBe(false);
  });
});

describe('[SECURITY][LEADS] CSV cells', () => {
  it.each([
    ['=1+2', `"'=1+2"`],
    ['+1', `"'+1"`],
    ['-1', `"'-1"`],
    ['@cmd', `"'@cmd"`],
    ['\tx', `"'\tx"`],
    ['\rx', `"'\rx"`],
    // Fullwidth and small forms, which some spreadsheets read as the ASCII sign.
    ['\uFF1D1+2', `"'\uFF1D1+2"`],
    ['\uFF0B1', `"'\uFF0B1"`],
    ['\uFF0D1', `"'\uFF0D1"`],
    ['\uFF20cmd', `"'\uFF20cmd"`],
    ['\uFE661+2', `"'\uFE661+2"`],
    ['a=1', '"a=1"'],
    ['\u00E9=1', '"\u00E9=1"'],
    ['plain "quoted"', '"plain ""quoted"""'],
    [null, '""'],
    [42, '"42"'],
  ])('%j → %s', (value, cell) => expect(csvCell(value)).toBe(cell));

  it('ends every line with CRLF, so streamed batches concatenate into one file', () => {
    expect(toCsvRows([['a', 1]]) + toCsvRows([['=b', null]])).toBe('"a","1"\r\n"\'=b",""\r\n');
    expect(toCsvRows([])).toBe('');
  });
});

describe('[LEADS] e-mail rendering keeps templates as data', () => {
  const ctx = {
    siteName: 'Sterling',
    siteUrl: 'https://example.gov',
    sender: { name: 'Sterling', email: null, phone: null, website: 'https://example.gov' },
  };
  it('ignores colours, fonts and links that are not what the form allows', () => {
    const mail = renderSample(
      {
        ...DEFAULT_TEMPLATE,
        headerBgColor: 'red;background:url(x)',
        fontFamily: 'x</style><script>',
        companyLogo: 'javascript:alert(1)',
        signatureWebsite: 'data:text/html,x',
      },
      'contact_response',
      ctx,
    );
    expect(mail.html).not.toMatch(/url\(x\)|<script|javascript:|data:text/);
    expect(mail.html).toContain(`background:${DEFAULT_TEMPLATE.headerBgColor}`);
  });
  it('resolves a relative logo against the site and flattens subjects to one line', () => {
    expect(safeHttpUrl('/uploads/logo.png', ctx.siteUrl)).toBe('https://example.gov/uploads/logo.png');
    expect(headerText('a\r\nBcc: x@y.z\tb')).toBe('a Bcc: x@y.z b');
    const mail = renderNotification(
      DEFAULT_TEMPLATE,
      { name: 'A\nB', email: 'a@b.co', company: null, phone: null, message: '<i>hi</i>', createdAt: new Date() },
      { ...ctx, adminUrl: 'https://example.gov/admin' },
    );
    expect(mail.subject).toBe('New inquiry from A B');
    expect(mail.html).toContain('&lt;i&gt;hi&lt;/i&gt;');
  });
});
