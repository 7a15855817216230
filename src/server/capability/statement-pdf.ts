import fs from 'node:fs/promises';
import { byNewestPeriod, formatDollars, formatPeriod } from '#shared/past-performance.ts';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import wawoff2 from 'wawoff2';

/*
 * The capability statement: one US Letter page, written from the site's own data as a tagged PDF
 * (a structure tree in reading order, title and language set, Public Sans embedded as subsets, the
 * logo with alternative text). Pure: data in, PDF bytes out; what it shows is chosen by
 * `statementInput` (statement-input.ts). Decision 014 tells why it is made this way.
 */

/** One past-performance entry as the statement takes it (the past-performance list's fields). */
export interface PastPerformanceEntry {
  customer: string;
  title: string;
  /** At most 600 characters. */
  summary: string;
  /** `YYYY-MM`. */
  periodStart: string;
  /** `YYYY-MM`; absent or null: ongoing. */
  periodEnd?: string | null;
  contractType?: string | null;
  /** In US dollars; printed only with `showValue`. */
  value?: number | null;
  showValue?: boolean;
  naicsCode?: string | null;
  isActive: boolean;
  displayOrder: number;
}

interface Item {
  title: string;
  description?: string | null;
}

/** A fact of the company-data column: a term and its value (or several values, one a line). */
interface Fact {
  term: string;
  values: string[];
}

export interface StatementInput {
  legalName: string;
  tagline?: string | null;
  /** The company profile's description: a short overview (four lines at most). */
  overview?: string | null;
  /** The uploaded logo as PNG or JPEG bytes with its alternative text; absent: the site's mark. */
  logo?: { data: Buffer; alt: string } | null;
  /** Core competencies (the services). */
  competencies: Item[];
  /** Differentiators (the why-choose-us or feature cards). */
  differentiators: Item[];
  pastPerformance: PastPerformanceEntry[];
  /** UEI, CAGE, set-aside, SAM, NAICS, certifications: only those set. */
  facts: Fact[];
  /** Phone, e-mail, address, website: only those set. */
  contact: Fact[];
}

/** The site's palette (src/styles/base.css). */
const COLOR = {
  ink: '#0f172a',
  body: '#334155',
  muted: '#5b6678',
  line: '#e2e8f0',
  surface: '#f8fafc',
  navy900: '#0b1f3a',
  navy800: '#12305a',
  navy700: '#1b3f73',
  brand700: '#0f766e',
  brand100: '#ccfbf1',
  teal300: '#5eead4',
};

const require = createRequire(import.meta.url);
/** Static Public Sans cuts (fontkit embeds WOFF; the site's own file is a variable WOFF2). */
const FONT_FILES = {
  regular: require.resolve('@fontsource/public-sans/files/public-sans-latin-400-normal.woff2'),
  semibold: require.resolve('@fontsource/public-sans/files/public-sans-latin-600-normal.woff2'),
  bold: require.resolve('@fontsource/public-sans/files/public-sans-latin-700-normal.woff2'),
};

/**
 * The fonts, opened once per process. fontkit reads a WOFF's glyphs by inflating its whole glyph
 * table again for each glyph (most of a statement's time), and cannot subset a WOFF2's composite
 * glyphs: so each WOFF2 is decompressed once to TrueType (wawoff2, Google's decoder) and kept.
 */
type Fonts = Record<keyof typeof FONT_FILES, fontkit.Font>;
let fonts: Promise<Fonts> | undefined;
function openFonts(): Promise<Fonts> {
  fonts ??= (async () => {
    const opened = {} as Fonts;
    for (const [name, file] of Object.entries(FONT_FILES) as [keyof Fonts, string][]) {
      const ttf = await wawoff2.decompress(await fs.readFile(file));
      opened[name] = fontkit.create(Buffer.from(ttf)) as fontkit.Font;
    }
    return opened;
  })();
  fonts.catch(() => (fonts = undefined));
  return fonts;
}

const PAGE = { width: 612, height: 792, margin: 36 };
const HEADER_HEIGHT = 96;
const FOOTER_TOP = PAGE.height - 40;
const GUTTER = 20;
const SIDE_WIDTH = 196;
const MAIN_X = PAGE.margin;
const MAIN_WIDTH = PAGE.width - 2 * PAGE.margin - SIDE_WIDTH - GUTTER;
const SIDE_X = MAIN_X + MAIN_WIDTH + GUTTER;
const ELLIPSIS = '…';
/** At most this many competencies and differentiators, so that past performance has room. */
const MAX_COMPETENCIES = 8;
const MAX_DIFFERENTIATORS = 5;

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;

interface TextStyle {
  font: keyof typeof FONT_FILES;
  size: number;
  color: string;
  lineGap?: number;
}

function setStyle(doc: Doc, style: TextStyle): void {
  doc.font(style.font).fontSize(style.size).fillColor(style.color);
}

/**
 * `text` as it fits in `lines` lines of `width` in the current font: whole, or cut at a word
 * boundary with an ellipsis. '' when not even one word fits.
 */
function fitText(doc: Doc, text: string, width: number, lines: number, lineGap = 0): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const height = (s: string) => doc.heightOfString(s, { width, lineGap });
  const limit = height('X') * lines + 0.5;
  if (height(clean) <= limit) return clean;
  const words = clean.split(' ');
  const cut = (n: number) =>
    `${words
      .slice(0, n)
      .join(' ')
      .replace(/[\s,;:.\-–—]+$/, '')}${ELLIPSIS}`;
  let lo = 0;
  let hi = words.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (height(cut(mid)) <= limit) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : cut(lo);
}

/** Draws decoration that is not content (backgrounds, rules): an artifact, outside the structure tree. */
function artifact(doc: Doc, draw: () => void): void {
  doc.markContent('Artifact', { type: 'Layout' });
  draw();
  doc.endMarkedContent();
}

/** A text block at (x, y): tagged as `role` under `parent`; answers the y below it. */
function block(doc: Doc, parent: Struct, role: string, text: string, x: number, y: number, width: number, style: TextStyle): number {
  setStyle(doc, style);
  const options = { width, lineGap: style.lineGap ?? 0 };
  const height = doc.heightOfString(text, options);
  parent.add(doc.struct(role, {}, () => doc.text(text, x, y, options)));
  return y + height;
}

/** The site's mark (BrandMark.astro: a shield with a check) as vector drawing, `size` points square. */
function drawMark(doc: Doc, x: number, y: number, size: number): void {
  doc
    .save()
    .translate(x, y)
    .scale(size / 40);
  doc.roundedRect(0, 0, 40, 40, 9).fill(COLOR.navy700);
  doc.path('M20 7.5l10 3.6v8.1c0 6.9-4.3 11.2-10 13.3-5.7-2.1-10-6.4-10-13.3v-8.1z').fill(COLOR.navy800);
  doc.path('M15 20.2l3.6 3.6 6.9-7.4').lineWidth(3).lineCap('round').lineJoin('round').stroke(COLOR.teal300);
  doc.restore();
}

/** Active entries, newest first (as every list of the record by date), then in the owner's order. */
function newestFirst(entries: readonly PastPerformanceEntry[]): PastPerformanceEntry[] {
  const dated = (e: PastPerformanceEntry) => ({ periodStart: e.periodStart, periodEnd: e.periodEnd ?? null });
  return entries
    .filter((e) => e.isActive)
    .slice()
    .sort((a, b) => byNewestPeriod(dated(a), dated(b)) || a.displayOrder - b.displayOrder);
}

/** The line under an entry's title: period, contract type, value, NAICS code (each only when set). */
function entryDetails(e: PastPerformanceEntry): string {
  return [
    formatPeriod(e.periodStart, e.periodEnd ?? null),
    e.contractType,
    e.showValue && typeof e.value === 'number' && e.value > 0 ? formatDollars(e.value) : null,
    e.naicsCode ? `NAICS ${e.naicsCode}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

const STYLE = {
  h2: { font: 'bold', size: 10.5, color: COLOR.brand700 },
  itemTitle: { font: 'semibold', size: 9, color: COLOR.ink },
  itemText: { font: 'regular', size: 8.5, color: COLOR.body, lineGap: 0.5 },
  meta: { font: 'regular', size: 7.5, color: COLOR.muted },
  term: { font: 'semibold', size: 7.5, color: COLOR.muted },
  value: { font: 'regular', size: 8.5, color: COLOR.ink, lineGap: 0.5 },
} satisfies Record<string, TextStyle>;

/** A section heading with a rule under it; answers the y below. */
function heading(doc: Doc, parent: Struct, text: string, x: number, y: number, width: number): number {
  const below = block(doc, parent, 'H2', text.toUpperCase(), x, y, width, STYLE.h2);
  artifact(doc, () => {
    doc
      .moveTo(x, below + 2)
      .lineTo(x + width, below + 2)
      .lineWidth(1)
      .stroke(COLOR.line);
  });
  return below + 7;
}

/**
 * A list of items, each a title and up to `lines` lines of text, while they fit above `bottom`
 * (an item that does not fit, and those after it, are left out). Answers the y below and how many fit.
 */
function itemList(
  doc: Doc,
  parent: Struct,
  items: readonly Item[],
  { x, y, width, bottom, lines }: { x: number; y: number; width: number; bottom: number; lines: number },
): { y: number; count: number } {
  // Added to the tree with its first item (see pastPerformance).
  let list: Struct | undefined;
  let count = 0;
  const bullet = 8;
  for (const item of items) {
    setStyle(doc, STYLE.itemTitle);
    const title = fitText(doc, item.title, width - bullet, 1);
    setStyle(doc, STYLE.itemText);
    const text = item.description ? fitText(doc, item.description, width - bullet, lines, STYLE.itemText.lineGap) : '';
    setStyle(doc, STYLE.itemTitle);
    const titleHeight = doc.heightOfString(title || 'X', { width: width - bullet });
    setStyle(doc, STYLE.itemText);
    const textHeight = text ? doc.heightOfString(text, { width: width - bullet, lineGap: STYLE.itemText.lineGap }) : 0;
    if (!title || y + titleHeight + textHeight > bottom) break;
    if (!list) {
      list = doc.struct('L');
      parent.add(list);
    }
    const li = doc.struct('LI');
    list.add(li);
    const top = y;
    artifact(doc, () => doc.rect(x, top + 3, 3.5, 3.5).fill(COLOR.brand700));
    const body = doc.struct('LBody');
    li.add(body);
    y = block(doc, body, 'P', title, x + bullet, y, width - bullet, STYLE.itemTitle);
    if (text) y = block(doc, body, 'P', text, x + bullet, y, width - bullet, STYLE.itemText);
    body.end();
    li.end();
    y += 5;
    count++;
  }
  list?.end();
  return { y, count };
}

/** Past performance, newest first, as many as fit above `bottom`. */
function pastPerformance(doc: Doc, parent: Struct, entries: readonly PastPerformanceEntry[], y: number, bottom: number): number {
  // The list joins the tree with its first entry: an element made but left outside the tree keeps
  // PDFKit's document from ever finishing (a publish would wait for it forever).
  let list: Struct | undefined;
  for (const e of newestFirst(entries)) {
    setStyle(doc, STYLE.itemTitle);
    const title = fitText(doc, `${e.title} — ${e.customer}`, MAIN_WIDTH, 2);
    const titleHeight = doc.heightOfString(title || 'X', { width: MAIN_WIDTH });
    setStyle(doc, STYLE.meta);
    const details = entryDetails(e);
    const detailsHeight = doc.heightOfString(details, { width: MAIN_WIDTH });
    setStyle(doc, STYLE.itemText);
    const summary = fitText(doc, e.summary, MAIN_WIDTH, 3, STYLE.itemText.lineGap);
    const summaryHeight = summary ? doc.heightOfString(summary, { width: MAIN_WIDTH, lineGap: STYLE.itemText.lineGap }) : 0;
    if (!title || y + titleHeight + detailsHeight + summaryHeight + 2 > bottom) break;
    if (!list) {
      // The heading only with an entry under it: measured before it is drawn.
      setStyle(doc, STYLE.h2);
      const headingHeight = doc.heightOfString('PAST PERFORMANCE', { width: MAIN_WIDTH }) + 7;
      if (y + headingHeight + titleHeight + detailsHeight + summaryHeight + 2 > bottom) break;
      y = heading(doc, parent, 'Past Performance', MAIN_X, y, MAIN_WIDTH);
      list = doc.struct('L');
      parent.add(list);
    }
    const li = doc.struct('LI');
    list.add(li);
    const body = doc.struct('LBody');
    li.add(body);
    y = block(doc, body, 'P', title, MAIN_X, y, MAIN_WIDTH, STYLE.itemTitle);
    y = block(doc, body, 'P', details, MAIN_X, y + 1, MAIN_WIDTH, STYLE.meta) + 1;
    if (summary) y = block(doc, body, 'P', summary, MAIN_X, y, MAIN_WIDTH, STYLE.itemText);
    body.end();
    li.end();
    y += 7;
  }
  list?.end();
  return y;
}

/** The company-data or contact column: a heading, then each fact as a term and its values. */
function factList(doc: Doc, parent: Struct, title: string, facts: readonly Fact[], y: number, bottom: number): number {
  if (facts.length === 0) return y;
  const x = SIDE_X + 10;
  const width = SIDE_WIDTH - 20;
  y = heading(doc, parent, title, x, y, width);
  const list = doc.struct('L');
  parent.add(list);
  for (const fact of facts) {
    setStyle(doc, STYLE.value);
    const values = fact.values.map((v) => fitText(doc, v, width, 2, STYLE.value.lineGap)).filter(Boolean);
    const valueHeight = values.reduce((h, v) => h + doc.heightOfString(v, { width, lineGap: STYLE.value.lineGap }) + 1, 0);
    if (values.length === 0 || y + 10 + valueHeight > bottom) continue;
    const li = doc.struct('LI');
    list.add(li);
    y = block(doc, li, 'Lbl', fact.term.toUpperCase(), x, y, width, STYLE.term) + 1;
    const body = doc.struct('LBody');
    li.add(body);
    for (const v of values) y = block(doc, body, 'P', v, x, y, width, STYLE.value) + 1;
    body.end();
    li.end();
    y += 5;
  }
  list.end();
  return y + 4;
}

/** The capability statement as PDF bytes. */
export async function capabilityStatementPdf(input: StatementInput, opts: { website?: string; createdAt?: Date } = {}): Promise<Buffer> {
  const faces = await openFonts();
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: PAGE.margin,
    pdfVersion: '1.7',
    tagged: true,
    lang: 'en-US',
    displayTitle: true,
    autoFirstPage: true,
    compress: true,
    info: {
      Title: `${input.legalName} — Capability Statement`,
      Author: input.legalName,
      Subject: 'Capability statement',
      Keywords: 'capability statement, federal contracting',
      Creator: input.legalName,
      // Given, not the clock: the same content makes the same file (a publish keeps it unchanged).
      CreationDate: opts.createdAt ?? new Date(0),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const [name, font] of Object.entries(faces)) doc.registerFont(name, font as unknown as Buffer);

  const root = doc.struct('Document');
  doc.addStructure(root);

  // Header band: logo, legal name, tagline, and what the document is.
  artifact(doc, () => doc.rect(0, 0, PAGE.width, HEADER_HEIGHT).fill(COLOR.navy900));
  const logoSize = 52;
  const logoY = (HEADER_HEIGHT - logoSize) / 2;
  let nameX = PAGE.margin;
  if (input.logo) {
    const logo = input.logo;
    const fitted = { fit: [110, logoSize] as [number, number], valign: 'center' as const };
    // A white tile under the logo (an artifact), then the logo itself as a Figure with its text.
    artifact(doc, () => doc.roundedRect(PAGE.margin - 4, logoY - 4, 118, logoSize + 8, 6).fill('#ffffff'));
    root.add(doc.struct('Figure', { alt: logo.alt }, () => doc.image(logo.data, PAGE.margin, logoY, fitted)));
    nameX += 126;
  } else {
    artifact(doc, () => drawMark(doc, PAGE.margin, logoY, logoSize));
    nameX += logoSize + 14;
  }
  const labelWidth = 130;
  const nameWidth = PAGE.width - PAGE.margin - labelWidth - nameX;
  // The legal name in 19 pt, or smaller (down to 14) before it is ever shortened.
  const nameStyle = { font: 'bold' as const, size: 19, color: '#ffffff' };
  const taglineStyle = { font: 'regular' as const, size: 9, color: COLOR.brand100 };
  const oneLine = (size: number) => (setStyle(doc, { ...nameStyle, size }), doc.heightOfString('X', { width: nameWidth }));
  while (
    nameStyle.size > 14 &&
    (setStyle(doc, nameStyle), doc.heightOfString(input.legalName, { width: nameWidth })) > oneLine(nameStyle.size) * 2 + 0.5
  )
    nameStyle.size -= 1;
  setStyle(doc, nameStyle);
  const name = fitText(doc, input.legalName, nameWidth, 2);
  const nameHeight = doc.heightOfString(name, { width: nameWidth });
  setStyle(doc, taglineStyle);
  const tagline = input.tagline ? fitText(doc, input.tagline, nameWidth, 2) : '';
  const taglineHeight = tagline ? doc.heightOfString(tagline, { width: nameWidth }) + 3 : 0;
  let y = (HEADER_HEIGHT - nameHeight - taglineHeight) / 2;
  y = block(doc, root, 'H1', name, nameX, y, nameWidth, nameStyle);
  if (tagline) block(doc, root, 'P', tagline, nameX, y + 3, nameWidth, taglineStyle);
  block(doc, root, 'P', 'CAPABILITY STATEMENT', PAGE.width - PAGE.margin - labelWidth, HEADER_HEIGHT / 2 - 5, labelWidth, {
    font: 'bold',
    size: 9,
    color: COLOR.teal300,
  });

  const top = HEADER_HEIGHT + 22;
  const bottom = FOOTER_TOP - 10;

  // Main column: what the business does, why it, and what it has done.
  const main = doc.struct('Sect');
  root.add(main);
  y = top;
  setStyle(doc, STYLE.itemText);
  const overview = input.overview ? fitText(doc, input.overview, MAIN_WIDTH, 4, STYLE.itemText.lineGap) : '';
  if (overview) {
    y = heading(doc, main, 'Company Overview', MAIN_X, y, MAIN_WIDTH);
    y = block(doc, main, 'P', overview, MAIN_X, y, MAIN_WIDTH, STYLE.itemText) + 10;
  }
  if (input.competencies.length) {
    y = heading(doc, main, 'Core Competencies', MAIN_X, y, MAIN_WIDTH);
    y = itemList(doc, main, input.competencies.slice(0, MAX_COMPETENCIES), { x: MAIN_X, y, width: MAIN_WIDTH, bottom, lines: 2 }).y + 6;
  }
  if (input.differentiators.length && y + 50 < bottom) {
    y = heading(doc, main, 'Differentiators', MAIN_X, y, MAIN_WIDTH);
    y =
      itemList(doc, main, input.differentiators.slice(0, MAX_DIFFERENTIATORS), { x: MAIN_X, y, width: MAIN_WIDTH, bottom, lines: 2 }).y + 6;
  }
  if (input.pastPerformance.length && y + 60 < bottom) pastPerformance(doc, main, input.pastPerformance, y, bottom);
  main.end();

  // Side column: the facts a contracting officer checks, and how to reach the business.
  artifact(doc, () => doc.rect(SIDE_X, top - 8, SIDE_WIDTH, bottom - top + 8).fill(COLOR.surface));
  const side = doc.struct('Sect');
  root.add(side);
  y = factList(doc, side, 'Company Data', input.facts, top, bottom);
  factList(doc, side, 'Contact', input.contact, y, bottom);
  side.end();

  // Footer: a rule and the website, as an artifact (the contact list already names it). It sits
  // in the bottom margin, which would otherwise start a second page.
  doc.page.margins.bottom = 0;
  artifact(doc, () => {
    doc
      .moveTo(PAGE.margin, FOOTER_TOP)
      .lineTo(PAGE.width - PAGE.margin, FOOTER_TOP)
      .lineWidth(2)
      .stroke(COLOR.brand700);
    setStyle(doc, STYLE.meta);
    const footer = [input.legalName, opts.website].filter(Boolean).join(' · ');
    doc.text(fitText(doc, footer, PAGE.width - 2 * PAGE.margin, 1), PAGE.margin, FOOTER_TOP + 8, {
      width: PAGE.width - 2 * PAGE.margin,
      align: 'center',
      lineBreak: false,
    });
  });

  root.end();
  doc.end();
  return done;
}
