import { describe, expect, it } from 'vitest';
import { isOnlyGreetingAndLinks, renderResponse, renderSample, replyGreeting, type ReplyContext } from '#shared/email/render.ts';
import { DEFAULT_TEMPLATE } from '#shared/fallbacks.ts';

const ctx: ReplyContext = {
  siteName: 'Sterling Federal Procurement LLC',
  siteUrl: 'https://sterlingfederal.us',
  sender: {
    name: 'Sterling Federal Procurement LLC',
    email: 'bids@sterlingfederal.us',
    phone: '(202) 460-0143',
    website: 'https://sterlingfederal.us',
  },
};
const inquiry = { name: 'Dana Smith', message: 'Can you quote 40 laptops?', createdAt: '2026-03-02T15:30:00Z' };
const written =
  'Hi Dana,\n\nYes: three TAA-compliant models fit. Our capability statement: https://sterlingfederal.us/files/cap.pdf.\n\nPat';

describe('[LEADS][REPLY] renderResponse sends the text as written', () => {
  const mail = renderResponse(DEFAULT_TEMPLATE, inquiry, written, ctx);

  it('adds no greeting of its own: the text starts as the administrator wrote it', () => {
    expect(mail.text.startsWith('Hi Dana,\n\nYes: three')).toBe(true);
    expect(mail.text).not.toContain('Dear');
    expect(mail.html).not.toContain('Dear');
    // A greeting typed once appears once.
    const greeted = renderResponse(DEFAULT_TEMPLATE, inquiry, `${replyGreeting(inquiry.name)}\n\nThanks.`, ctx);
    expect(greeted.text.match(/Dear Dana Smith,/g)).toHaveLength(1);
    expect(greeted.html.match(/Dear Dana Smith,/g)).toHaveLength(1);
  });

  it('signs with the company profile and the real contact details, not the template signature', () => {
    expect(mail.text).toContain(
      '\n-- \nSterling Federal Procurement LLC\nbids@sterlingfederal.us\n(202) 460-0143\nhttps://sterlingfederal.us\n',
    );
    expect(mail.text).not.toContain(DEFAULT_TEMPLATE.signatureName);
    expect(mail.html).not.toContain(DEFAULT_TEMPLATE.signatureName);
    expect(mail.html).toContain('<strong>Sterling Federal Procurement LLC</strong>');
    expect(mail.html).toContain('href="mailto:bids@sterlingfederal.us"');
    expect(mail.html).toContain('href="tel:2024600143"');
  });

  it('never shows a placeholder: the template default e-mail is not used, and a missing detail is left out', () => {
    expect(mail.text + mail.html).not.toContain('example.com');
    const bare = renderResponse(DEFAULT_TEMPLATE, inquiry, written, { ...ctx, sender: { ...ctx.sender, email: null, phone: null } });
    expect(bare.text).toContain('\n-- \nSterling Federal Procurement LLC\nhttps://sterlingfederal.us\n');
    expect(bare.text + bare.html).not.toMatch(/example\.com|555-01|mailto:|tel:/);
  });

  it('quotes the inquiry after the signature and ends with the footer; links the addresses written in the text', () => {
    expect(mail.text).toMatch(
      /https:\/\/sterlingfederal\.us\n\nYour message of Mar 2, 2026, 10:30 AM ET:\n> Can you quote 40 laptops\?\n\nThank you for contacting us[^\n]*$/,
    );
    const html = mail.html;
    expect(html.indexOf('<strong>Sterling Federal Procurement LLC</strong>')).toBeLessThan(html.indexOf('Can you quote 40 laptops?'));
    expect(html.indexOf('Can you quote 40 laptops?')).toBeLessThan(html.indexOf('Thank you for contacting us'));
    expect(html).toContain('<a href="https://sterlingfederal.us/files/cap.pdf">https://sterlingfederal.us/files/cap.pdf</a>.');
  });

  it('escapes the written text and ignores links that are not http(s)', () => {
    const odd = renderResponse(DEFAULT_TEMPLATE, inquiry, '<b>bold</b> javascript:alert(1) "https://x.test/a"', ctx);
    expect(odd.html).toContain('&lt;b&gt;bold&lt;/b&gt; javascript:alert(1) &quot;<a href="https://x.test/a">https://x.test/a</a>&quot;');
    expect(odd.html).not.toContain('<b>');
  });

  it('the Templates preview sample is a reply rendered the same way (greeting in the text, company signature)', () => {
    const sample = renderSample({ ...DEFAULT_TEMPLATE, signatureName: 'Pat' }, 'contact_response', ctx);
    expect(sample.text.startsWith('Dear Jane Buyer,\n\nThank you for your inquiry.')).toBe(true);
    expect(sample.text).toContain('\n-- \nSterling Federal Procurement LLC\n');
    expect(sample.text).not.toContain('Pat');
  });

  it("signs with the sending administrator's name, title and phone before the company, when they have a signature", () => {
    const person = { ...ctx, sender: { ...ctx.sender, person: { name: 'Pat Sterling', title: 'President' }, phone: '(202) 460-0199' } };
    const signed = renderResponse(DEFAULT_TEMPLATE, inquiry, written, person);
    expect(signed.text).toContain(
      '\n-- \nPat Sterling\nPresident\nSterling Federal Procurement LLC\nbids@sterlingfederal.us\n(202) 460-0199\nhttps://sterlingfederal.us\n',
    );
    expect(signed.html).toContain('<strong>Pat Sterling</strong><br>President<br>Sterling Federal Procurement LLC<br>');
  });

  it("keeps the buyer's RFQ or solicitation number in the subject", () => {
    expect(mail.subject).toBe('Re: Your inquiry to Sterling Federal Procurement LLC');
    expect(renderResponse(DEFAULT_TEMPLATE, { ...inquiry, solicitation: '36C10X26Q0123' }, written, ctx).subject).toBe(
      'Re: RFQ 36C10X26Q0123 – Your inquiry to Sterling Federal Procurement LLC',
    );
    expect(renderResponse(DEFAULT_TEMPLATE, { ...inquiry, solicitation: 'RFP W912-26-R-0042' }, written, ctx).subject).toBe(
      'Re: RFP W912-26-R-0042 – Your inquiry to Sterling Federal Procurement LLC',
    );
  });
});

describe('[LEADS][REPLY] a reply with nothing written', () => {
  it('is one holding only the greeting and links; any word of the writer counts', () => {
    expect(isOnlyGreetingAndLinks(`${replyGreeting('Marcus Bell')}\n\nhttps://sterlingfederal.us/capability-statement.pdf\n`)).toBe(true);
    expect(isOnlyGreetingAndLinks('Hi Dana,\n\n')).toBe(true);
    expect(isOnlyGreetingAndLinks('')).toBe(true);
    expect(isOnlyGreetingAndLinks(`${replyGreeting('Marcus Bell')}\n\nOur statement: https://x.test/a.pdf`)).toBe(false);
    expect(isOnlyGreetingAndLinks('Hello, the price is 40 dollars')).toBe(false);
    expect(isOnlyGreetingAndLinks('Dear Marcus,\n\nDear Marcus,')).toBe(false);
  });
});
