import { buyerTypeLabel, formatDueDate, solicitationLabel, type BuyerFacts } from '../buyer-facts';
import { FONT_STACKS } from '../constants';
import { DEFAULT_TEMPLATE } from '../fallbacks';

/*
 * E-mail templates are data, never code: an administrator chooses colours, a font, a logo, a
 * footer and a signature, and these functions place them into one fixed layout. Every value is
 * escaped, colours must be #RRGGBB, fonts one of the offered stacks and links http(s), so nothing
 * stored in a template or typed by a visitor can add markup, styles or scripts to a message.
 * Browser-safe: the Templates tab renders its live preview with the same code the server sends.
 */

/** The parts of an e-mail template that shape a message. */
export interface TemplateLook {
  headerBgColor: string;
  headerTextColor: string;
  contentBgColor: string;
  contentTextColor: string;
  accentColor: string;
  fontFamily: string;
  companyLogo: string | null;
  footerText: string;
  signatureName: string;
  signatureEmail: string;
  signatureWebsite: string;
}

export interface RenderedMail {
  subject: string;
  /** The plain-text part. */
  text: string;
  /** The HTML part. */
  html: string;
}

export interface InquiryFacts extends BuyerFacts {
  name: string;
  email: string;
  company: string | null;
  phone: string | null;
  message: string;
  createdAt: Date | string;
}

export interface RenderContext {
  /** The business's name, shown in subjects and headings. */
  siteName: string;
  /** Absolute site URL: relative logo paths resolve against it. */
  siteUrl: string;
}

/**
 * Who signs a reply: the sending administrator's own signature (name and title, Account tab) when
 * they have one, then the company profile's legal name and the business's real contact details
 * (the administrator's own phone before the business's). A value that is not set, or is a
 * placeholder, is null and left out of the signature.
 */
interface ReplySender {
  person?: { name: string; title: string | null } | null;
  /** The company's legal name. */
  name: string;
  email: string | null;
  phone: string | null;
  website: string | null;
}

export interface ReplyContext extends RenderContext {
  sender: ReplySender;
}

/** Everything the Respond dialog needs to show a reply exactly as it will be sent (GET /api/admin/reply-setup). */
export interface ReplySetup {
  context: ReplyContext;
  /** The active response template, or the built-in look. */
  look: TemplateLook;
  /** The active capability statement's public address, when one exists. */
  capabilityStatement: { title: string; url: string } | null;
}

const HEX = /^#[0-9a-f]{6}$/i;

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * One line for a header: control characters (CR, LF, tabs...) become spaces, at most `max`
 * characters. A visitor's `=?utf-8?b?…?=` would be read by mail programs as an encoded word and
 * shown decoded (any text they chose, in the staff's subject line): its `=?` is split (`= ?`), so
 * what they typed is shown as typed.
 */
export function headerText(value: string, max = 200): string {
  const flat = value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/=\?/g, '= ?')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function color(value: string, fallback: string): string {
  return HEX.test(value) ? value : fallback;
}

function font(value: string): string {
  return (FONT_STACKS as readonly string[]).includes(value) ? value : DEFAULT_TEMPLATE.fontFamily;
}

/** An absolute http(s) URL, or null: relative paths resolve against the site, anything else is dropped. */
export function safeHttpUrl(value: string | null | undefined, base: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** US Eastern time, where the business keeps its hours. */
function formatWhen(value: Date | string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return `${date.toLocaleString('en-US', { timeZone: 'America/New_York', dateStyle: 'medium', timeStyle: 'short' })} ET`;
}

/** Escaped text with its line breaks kept. */
function paragraphs(value: string): string {
  return value
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 16px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

const URL_IN_TEXT = /(https?:\/\/[^\s<>"']+)/;

/** Like `paragraphs`, with each http(s) address in the text made a link (written replies paste links). */
function paragraphsWithLinks(value: string, base: string): string {
  const line = (text: string) =>
    text
      .split(URL_IN_TEXT)
      .map((part, i) => {
        if (i % 2 === 0) return escapeHtml(part);
        // Sentence punctuation after an address is not part of it.
        const [, address = part, tail = ''] = /^(.*?)([.,;:!?)\]]*)$/.exec(part) ?? [];
        const href = safeHttpUrl(address, base);
        return href ? `<a href="${escapeHtml(href)}">${escapeHtml(address)}</a>${escapeHtml(tail)}` : escapeHtml(part);
      })
      .join('');
  return value
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 16px">${p.split('\n').map(line).join('<br>')}</p>`)
    .join('');
}

interface SignatureLine {
  text: string;
  href?: string | null;
}

type Block =
  | { kind: 'text'; text: string; links?: boolean }
  | { kind: 'fields'; rows: [string, string][] }
  | { kind: 'quote'; title: string; text: string }
  | { kind: 'signature'; lines: SignatureLine[] }
  | { kind: 'link'; text: string; label: string; href: string };

/** Signature lines: the first in bold, links where a line has one. */
function signatureHtml(lines: SignatureLine[], accent: string): string {
  return lines
    .map((l, i) => {
      const text = escapeHtml(l.text);
      if (l.href) return `<a href="${escapeHtml(l.href)}" style="color:${accent}">${text}</a>`;
      return i === 0 ? `<strong>${text}</strong>` : text;
    })
    .join('<br>');
}

/**
 * One fixed layout around the blocks; a message signs itself with a `signature` block. `staff`: a
 * message for the business's own people, without the footer written for visitors.
 */
function layout(t: TemplateLook, ctx: RenderContext, heading: string, blocks: Block[], { staff = false } = {}): string {
  const d = DEFAULT_TEMPLATE;
  const headerBg = color(t.headerBgColor, d.headerBgColor);
  const headerFg = color(t.headerTextColor, d.headerTextColor);
  const contentBg = color(t.contentBgColor, d.contentBgColor);
  const contentFg = color(t.contentTextColor, d.contentTextColor);
  const accent = color(t.accentColor, d.accentColor);
  const fontStack = escapeHtml(font(t.fontFamily));
  const logo = safeHttpUrl(t.companyLogo, ctx.siteUrl);
  const body = blocks
    .map((b) => {
      if (b.kind === 'text') return b.links ? paragraphsWithLinks(b.text, ctx.siteUrl) : paragraphs(b.text);
      if (b.kind === 'signature') return `<p style="margin:24px 0">${signatureHtml(b.lines, accent)}</p>`;
      if (b.kind === 'link') {
        const href = safeHttpUrl(b.href, ctx.siteUrl);
        const label = href ? `<a href="${escapeHtml(href)}" style="color:${accent}">${escapeHtml(b.label)}</a>` : escapeHtml(b.label);
        return `<p style="margin:0 0 16px">${escapeHtml(b.text)} ${label}</p>`;
      }
      if (b.kind === 'quote')
        return `<div style="margin:8px 0 16px;padding:12px 16px;border-left:4px solid ${accent};background:#f8fafc"><p style="margin:0 0 8px;font-weight:bold">${escapeHtml(b.title)}</p>${paragraphs(b.text)}</div>`;
      const rows = b.rows
        .map(
          ([k, v]) =>
            `<tr><th align="left" style="padding:6px 12px 6px 0;vertical-align:top;white-space:nowrap">${escapeHtml(k)}</th><td style="padding:6px 0;word-break:break-word">${escapeHtml(v)}</td></tr>`,
        )
        .join('');
      return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;border-collapse:collapse">${rows}</table>`;
    })
    .join('');
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${escapeHtml(heading)}</title></head>`,
    `<body style="margin:0;padding:0;background:#f3f4f6">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 12px">`,
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;background:${contentBg};color:${contentFg};font-family:${fontStack};font-size:15px;line-height:1.6;border-radius:8px;overflow:hidden">`,
    `<tr><td style="background:${headerBg};color:${headerFg};padding:24px">`,
    logo
      ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(ctx.siteName)}" height="40" style="display:block;height:40px;margin:0 0 12px;border:0">`
      : '',
    `<h1 style="margin:0;font-size:20px;line-height:1.3;color:${headerFg}">${escapeHtml(heading)}</h1></td></tr>`,
    `<tr><td style="padding:24px">${body}</td></tr>`,
    staff ? '' : `<tr><td style="padding:16px 24px;border-top:3px solid ${accent};font-size:13px">${paragraphs(t.footerText)}</td></tr>`,
    '</table></td></tr></table></body></html>',
  ].join('');
}

function quoteText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
}

/**
 * The subject's "RFQ 36C10X26Q0123, due Dec 3" (the year only when it is not the year the inquiry
 * arrived), or '' when the visitor gave neither.
 */
function requestTopic(s: InquiryFacts): string {
  const received = new Date(s.createdAt).getUTCFullYear();
  const due = s.responseDue ? formatDueDate(s.responseDue, { year: !s.responseDue.startsWith(`${received}-`) }) : null;
  return [s.solicitation ? solicitationLabel(s.solicitation) : null, due ? `due ${due}` : null].filter(Boolean).join(', ');
}

/**
 * The staff's notice of a new inquiry (template type contact_notification): the inquiry, then
 * what the staff can do with it. It is read by the business's own people, so the template's look
 * applies but its visitor-facing footer and signature do not.
 */
export function renderNotification(t: TemplateLook, s: InquiryFacts, ctx: RenderContext & { adminUrl: string }): RenderedMail {
  const who = s.company ? `${s.name} (${s.company})` : s.name;
  // One header line: the sender's name gives way before the RFQ number and due date do.
  const topic = headerText(requestTopic(s), 130);
  const subject = topic
    ? `${headerText(`New inquiry from ${who}`, 200 - topic.length - 2)}: ${topic}`
    : headerText(`New inquiry from ${who}`);
  const rows: [string, string][] = [
    ['Name', s.name],
    ['Email', s.email],
    ['Company', s.company || '—'],
    ['Phone', s.phone || '—'],
    ['Buyer type', buyerTypeLabel(s.buyerType) ?? '—'],
    ['Solicitation or RFQ', s.solicitation || '—'],
    ['Response due', s.responseDue ? formatDueDate(s.responseDue, { year: true, weekday: true }) : '—'],
    ['Received', formatWhen(s.createdAt)],
  ];
  const intro = `A new inquiry arrived through the contact form of ${ctx.siteName}.`;
  const answer = 'Answer it in the back office:';
  const reply = `Or reply to this e-mail: your reply goes to ${s.name} at ${s.email}.`;
  const text = [intro, '', ...rows.map(([k, v]) => `${k}: ${v}`), '', 'Message:', s.message, '', `${answer} ${ctx.adminUrl}`, reply].join(
    '\n',
  );
  const html = layout(
    t,
    ctx,
    'New inquiry',
    [
      { kind: 'text', text: intro },
      { kind: 'fields', rows },
      { kind: 'quote', title: 'Message', text: s.message },
      { kind: 'link', text: answer, label: 'Open the inbox', href: ctx.adminUrl },
      { kind: 'text', text: reply },
    ],
    { staff: true },
  );
  return { subject, text, html };
}

/**
 * The greeting a reply starts with, prefilled once in the Respond dialog and then part of the text
 * the administrator edits: 'Dear {full name},' (the name as the visitor typed it, on one line).
 */
export function replyGreeting(name: string): string {
  return `Dear ${headerText(name, 100)},`;
}

const GREETING_LINE = /^(?:dear|hi|hello|good (?:morning|afternoon|evening))\b[^\n]{0,110},[ \t]*$/im;

/**
 * True when a reply holds nothing its writer wrote: only a greeting line and web addresses (the
 * Respond dialog asks 'Send without a message?' before sending one).
 */
export function isOnlyGreetingAndLinks(reply: string): boolean {
  const rest = reply.replace(GREETING_LINE, '').replace(new RegExp(URL_IN_TEXT.source, 'g'), '');
  return !/[\p{L}\p{N}]/u.test(rest);
}

/**
 * The signature of a reply: the administrator's name and title when they have a signature, the
 * company's name, then the real e-mail, phone and website.
 */
function replySignature(sender: ReplySender, siteUrl: string): SignatureLine[] {
  const website = safeHttpUrl(sender.website, siteUrl);
  const phoneDigits = sender.phone?.replace(/[^\d+]/g, '') ?? '';
  const person = sender.person;
  return [
    ...(person ? [{ text: person.name }, ...(person.title ? [{ text: person.title }] : [])] : []),
    { text: sender.name },
    ...(sender.email ? [{ text: sender.email, href: `mailto:${sender.email}` }] : []),
    ...(sender.phone ? [{ text: sender.phone, href: phoneDigits ? `tel:${phoneDigits}` : null }] : []),
    ...(website ? [{ text: website.replace(/\/$/, ''), href: website }] : []),
  ];
}

/**
 * The reply to a visitor (template type contact_response): the text exactly as the administrator
 * wrote it (greeting included; nothing is added before it), the signature, the visitor's message
 * quoted, then the template's footer. The subject keeps the buyer's RFQ or solicitation number
 * when they gave one: 'Re: RFQ 36C10X26Q0123 – Your inquiry to …'.
 */
export function renderResponse(
  t: TemplateLook,
  s: Pick<InquiryFacts, 'name' | 'message' | 'createdAt' | 'solicitation'>,
  reply: string,
  ctx: ReplyContext,
): RenderedMail {
  const solicitation = s.solicitation ? `${headerText(solicitationLabel(s.solicitation), 100)} – ` : '';
  const subject = headerText(`Re: ${solicitation}Your inquiry to ${ctx.siteName}`);
  const body = reply.trim();
  const signature = replySignature(ctx.sender, ctx.siteUrl);
  const quoteTitle = `Your message of ${formatWhen(s.createdAt)}`;
  const text = [
    body,
    '',
    '-- ',
    signature.map((l) => l.text).join('\n'),
    '',
    `${quoteTitle}:`,
    quoteText(s.message),
    '',
    t.footerText,
  ].join('\n');
  const html = layout(t, ctx, `Your inquiry to ${ctx.siteName}`, [
    { kind: 'text', text: body, links: true },
    { kind: 'signature', lines: signature },
    { kind: 'quote', title: quoteTitle, text: s.message },
  ]);
  return { subject, text, html };
}

const SAMPLE: InquiryFacts = {
  name: 'Jane Buyer',
  email: 'jane.buyer@agency.gov',
  company: 'Department of Veterans Affairs',
  phone: '(555) 010-0199',
  message: 'We need 40 laptops delivered to three sites by June. Can you quote TAA-compliant models?',
  buyerType: 'government',
  solicitation: '36C10X26Q0123',
  responseDue: '2026-03-20',
  createdAt: '2026-03-02T15:30:00Z',
};

/** What a template looks like, with sample content: the Templates tab's preview and test e-mail. */
export function renderSample(t: TemplateLook, type: 'contact_notification' | 'contact_response', ctx: ReplyContext): RenderedMail {
  if (type === 'contact_notification')
    return renderNotification(t, SAMPLE, { ...ctx, adminUrl: new URL('/admin#contacts', ctx.siteUrl).toString() });
  return renderResponse(
    t,
    SAMPLE,
    `${replyGreeting(SAMPLE.name)}\n\nThank you for your inquiry. Three TAA-compliant models fit your requirement; a quote is attached to our next message.`,
    ctx,
  );
}
