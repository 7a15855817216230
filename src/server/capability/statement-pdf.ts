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
const FACT_X = SIDE_X + 10;
const FACT_WIDTH = SIDE_WIDTH - 20;
const BODY_TOP = HEADER_HEIGHT + 22;
const BODY_BOTTOM = FOOTER_TOP - 10;
const ELLIPSIS = '…';
/** At most this many competencies and differentiators: a statement is one page, read in a minute. */
const MAX_COMPETENCIES = 10;
const MAX_DIFFERENTIATORS = 5;
/** The body type's sizes, largest first: the page takes the largest at which everything fits. 8.5 pt is the floor. */
const BODY_SIZES = [9.5, 9, 8.5];
/** Columns that end further apart than this, while content was left out, are balanced by moving a section. */
const BALANCE = PAGE.height * 0.15;

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
 * boundary with an ellipsis. '' when not even one word fits. Only for summaries and descriptions:
 * names and company data are always printed whole.
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

/** The text styles at a body size (8.5 pt: the sizes the statement had before it could grow). */
function stylesAt(body: number) {
  const d = body - 8.5;
  return {
    h2: { font: 'bold', size: 10.5 + d, color: COLOR.brand700 },
    itemTitle: { font: 'semibold', size: 9 + d, color: COLOR.ink },
    itemText: { font: 'regular', size: body, color: COLOR.body, lineGap: 0.5 },
    meta: { font: 'regular', size: 7.5 + d, color: COLOR.muted },
    term: { font: 'semibold', size: 7.5 + d, color: COLOR.muted },
    value: { font: 'regular', size: body, color: COLOR.ink, lineGap: 0.5 },
  } satisfies Record<string, TextStyle>;
}
type Styles = ReturnType<typeof stylesAt>;

/**
 * Where the body is laid out: `dry` measures only (nothing drawn, no structure made: an element
 * made but left outside the tree keeps PDFKit's document from ever finishing).
 */
interface Pen {
  doc: Doc;
  dry: boolean;
  st: Styles;
  /** Heights and shortened texts already measured in this document: the plans tried measure the same texts again and again. */
  memo: Map<string, number | string>;
}

/** A pen for `doc` at a body size (sharing `memo` with the other pens of the same document). */
const penFor = (doc: Doc, body: number, dry: boolean, memo: Pen['memo']): Pen => ({ doc, dry, st: stylesAt(body), memo });

/** The height of `text` in `style` at `width`, measured once a document. */
function heightOf(pen: Pen, text: string, width: number, style: TextStyle): number {
  const key = `h|${style.font}|${style.size}|${style.lineGap ?? 0}|${width}|${text}`;
  let height = pen.memo.get(key) as number | undefined;
  if (height === undefined) {
    setStyle(pen.doc, style);
    height = pen.doc.heightOfString(text, { width, lineGap: style.lineGap ?? 0 });
    pen.memo.set(key, height);
  }
  return height;
}

/** `fitText` in `style`, worked out once a document. */
function fitted(pen: Pen, text: string, width: number, lines: number, style: TextStyle): string {
  const key = `f|${style.font}|${style.size}|${style.lineGap ?? 0}|${width}|${lines}|${text}`;
  let fit = pen.memo.get(key) as string | undefined;
  if (fit === undefined) {
    setStyle(pen.doc, style);
    fit = fitText(pen.doc, text, width, lines, style.lineGap ?? 0);
    pen.memo.set(key, fit);
  }
  return fit;
}

/** A structure element under `parent`, or nothing while measuring. */
function element(pen: Pen, parent: Struct | undefined, role: string): Struct | undefined {
  if (pen.dry || !parent) return undefined;
  const el = pen.doc.struct(role);
  parent.add(el);
  return el;
}

/** A text block at (x, y): tagged as `role` under `parent`; answers the y below it. */
function block(
  pen: Pen,
  parent: Struct | undefined,
  role: string,
  text: string,
  x: number,
  y: number,
  width: number,
  style: TextStyle,
): number {
  const { doc } = pen;
  setStyle(doc, style);
  const options = { width, lineGap: style.lineGap ?? 0 };
  const height = doc.heightOfString(text, options);
  if (!pen.dry && parent) parent.add(doc.struct(role, {}, () => doc.text(text, x, y, options)));
  return y + height;
}

/** A section heading with a rule under it; answers the y below. */
function heading(pen: Pen, parent: Struct | undefined, text: string, x: number, y: number, width: number): number {
  const below = block(pen, parent, 'H2', text.toUpperCase(), x, y, width, pen.st.h2);
  if (!pen.dry)
    artifact(pen.doc, () => {
      pen.doc
        .moveTo(x, below + 2)
        .lineTo(x + width, below + 2)
        .lineWidth(1)
        .stroke(COLOR.line);
    });
  return below + 7;
}

/** A titled list of items, each a whole title and up to two lines of text; answers the y below, or null when one does not fit above `bottom`. */
function itemSection(
  pen: Pen,
  parent: Struct | undefined,
  title: string,
  items: readonly Item[],
  x: number,
  y: number,
  width: number,
): number | null {
  if (items.length === 0) return y;
  const bullet = 8;
  const inner = width - bullet;
  y = heading(pen, parent, title, x, y, width);
  const list = element(pen, parent, 'L');
  for (const item of items) {
    const text = item.description ? fitted(pen, item.description, inner, 2, pen.st.itemText) : '';
    const height = heightOf(pen, item.title, inner, pen.st.itemTitle) + (text ? heightOf(pen, text, inner, pen.st.itemText) : 0);
    if (y + height > BODY_BOTTOM) return null;
    const li = element(pen, list, 'LI');
    const top = y;
    if (!pen.dry) artifact(pen.doc, () => pen.doc.rect(x, top + 3, 3.5, 3.5).fill(COLOR.brand700));
    const body = element(pen, li, 'LBody');
    y = block(pen, body, 'P', item.title, x + bullet, y, inner, pen.st.itemTitle);
    if (text) y = block(pen, body, 'P', text, x + bullet, y, inner, pen.st.itemText);
    body?.end();
    li?.end();
    y += 5;
  }
  list?.end();
  return y + 6;
}

/** Past performance, newest first; the y below, or null when an entry does not fit. */
function pastPerformanceSection(pen: Pen, parent: Struct | undefined, entries: readonly PastPerformanceEntry[], y: number): number | null {
  if (entries.length === 0) return y;
  y = heading(pen, parent, 'Past Performance', MAIN_X, y, MAIN_WIDTH);
  const list = element(pen, parent, 'L');
  for (const e of entries) {
    const title = `${e.title} — ${e.customer}`;
    const details = entryDetails(e);
    const summary = fitted(pen, e.summary, MAIN_WIDTH, 3, pen.st.itemText);
    const height =
      heightOf(pen, title, MAIN_WIDTH, pen.st.itemTitle) +
      heightOf(pen, details, MAIN_WIDTH, pen.st.meta) +
      (summary ? heightOf(pen, summary, MAIN_WIDTH, pen.st.itemText) : 0) +
      2;
    if (y + height > BODY_BOTTOM) return null;
    const li = element(pen, list, 'LI');
    const body = element(pen, li, 'LBody');
    y = block(pen, body, 'P', title, MAIN_X, y, MAIN_WIDTH, pen.st.itemTitle);
    y = block(pen, body, 'P', details, MAIN_X, y + 1, MAIN_WIDTH, pen.st.meta) + 1;
    if (summary) y = block(pen, body, 'P', summary, MAIN_X, y, MAIN_WIDTH, pen.st.itemText);
    body?.end();
    li?.end();
    y += 7;
  }
  list?.end();
  return y;
}

/** The height one fact takes: its term and each value whole. */
const factHeight = (pen: Pen, fact: Fact, width: number) =>
  heightOf(pen, fact.term.toUpperCase(), width, pen.st.term) +
  1 +
  fact.values.reduce((h, v) => h + heightOf(pen, v, width, pen.st.value) + 1, 0) +
  5;

/**
 * Facts (a term and its values, each printed whole) under a heading, in order, while they fit
 * above `bottom`: answers the y below and how many were placed.
 */
function factSection(
  pen: Pen,
  parent: Struct | undefined,
  title: string,
  facts: readonly Fact[],
  { x, y, width, bottom }: { x: number; y: number; width: number; bottom: number },
): { y: number; placed: number } {
  if (facts.length === 0) return { y, placed: 0 };
  const headed = heightOf(pen, title.toUpperCase(), width, pen.st.h2) + 7;
  if (y + headed + factHeight(pen, facts[0]!, width) > bottom) return { y, placed: 0 };
  y = heading(pen, parent, title, x, y, width);
  const list = element(pen, parent, 'L');
  let placed = 0;
  for (const fact of facts) {
    if (y + factHeight(pen, fact, width) > bottom) break;
    const li = element(pen, list, 'LI');
    y = block(pen, li, 'Lbl', fact.term.toUpperCase(), x, y, width, pen.st.term) + 1;
    const body = element(pen, li, 'LBody');
    for (const v of fact.values) y = block(pen, body, 'P', v, x, y, width, pen.st.value) + 1;
    body?.end();
    li?.end();
    y += 5;
    placed++;
  }
  list?.end();
  return { y: y + 4, placed };
}

/** What a layout places: the content kept, at a body size, with the two sections that may change column. */
interface Plan {
  body: number;
  competencies: Item[];
  differentiators: Item[];
  pastPerformance: PastPerformanceEntry[];
  /** Differentiators in the side column (under the contact) instead of the main one. */
  differentiatorsSide: boolean;
  /** The contact block in the main column instead of the side one. */
  contactMain: boolean;
  /** What was left out, as the back office says it. */
  leftOut: string[];
}

/** Where a layout ended: each column's last y, and whether everything of its plan was placed. */
interface Placed {
  fits: boolean;
  mainY: number;
  sideY: number;
}

/**
 * Lays out the body: the side column's company data first measured (facts that do not fit there
 * continue in the main column, never left out), then the main column (overview, competencies, the
 * company data that continues, the contact and differentiators where the plan puts them, past
 * performance), then the side column, so the structure tree reads main column, then side.
 */
function layBody(pen: Pen, root: Struct | undefined, input: StatementInput, plan: Plan): Placed {
  const sideArgs = { x: FACT_X, y: BODY_TOP, width: FACT_WIDTH, bottom: BODY_BOTTOM };
  const inSide = factSection({ ...pen, dry: true }, undefined, 'Company Data', input.facts, sideArgs).placed;
  const overflow = input.facts.slice(inSide);
  const contactMain = plan.contactMain || overflow.length > 0;

  const main = element(pen, root, 'Sect');
  let y: number | null = BODY_TOP;
  const overview = input.overview ? fitted(pen, input.overview, MAIN_WIDTH, 4, pen.st.itemText) : '';
  if (overview) {
    y = heading(pen, main, 'Company Overview', MAIN_X, y, MAIN_WIDTH);
    y = block(pen, main, 'P', overview, MAIN_X, y, MAIN_WIDTH, pen.st.itemText) + 10;
  }
  let fits = true;
  const mainFacts = (title: string, facts: readonly Fact[]) => {
    if (y === null || facts.length === 0) return;
    const placed = factSection(pen, main, title, facts, { x: MAIN_X, y, width: MAIN_WIDTH, bottom: BODY_BOTTOM });
    if (placed.placed < facts.length) fits = false;
    y = placed.y;
  };
  y = itemSection(pen, main, 'Core Competencies', plan.competencies, MAIN_X, y, MAIN_WIDTH);
  mainFacts(inSide > 0 ? 'Company Data (continued)' : 'Company Data', overflow);
  if (contactMain) mainFacts('Contact', input.contact);
  if (y !== null && !plan.differentiatorsSide) y = itemSection(pen, main, 'Differentiators', plan.differentiators, MAIN_X, y, MAIN_WIDTH);
  if (y !== null) y = pastPerformanceSection(pen, main, plan.pastPerformance, y);
  main?.end();
  if (y === null) fits = false;

  // The side column: its band, the company data, then the contact and differentiators where the plan puts them.
  if (!pen.dry) artifact(pen.doc, () => pen.doc.rect(SIDE_X, BODY_TOP - 8, SIDE_WIDTH, BODY_BOTTOM - BODY_TOP + 8).fill(COLOR.surface));
  const side = element(pen, root, 'Sect');
  let sideY: number | null = factSection(pen, side, 'Company Data', input.facts.slice(0, inSide), sideArgs).y;
  if (!contactMain) {
    const placed = factSection(pen, side, 'Contact', input.contact, { ...sideArgs, y: sideY });
    if (placed.placed < input.contact.length) fits = false;
    sideY = placed.y;
  }
  if (plan.differentiatorsSide) sideY = itemSection(pen, side, 'Differentiators', plan.differentiators, FACT_X, sideY, FACT_WIDTH);
  side?.end();
  if (sideY === null) fits = false;
  return { fits, mainY: y ?? BODY_BOTTOM, sideY: sideY ?? BODY_BOTTOM };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The plans to try, best first: everything at each body size, largest first; then, at the floor,
 * less, as the generator says. Company data is never left out.
 */
function* plans(input: StatementInput): Generator<Omit<Plan, 'differentiatorsSide' | 'contactMain'>> {
  const competencies = input.competencies.slice(0, MAX_COMPETENCIES);
  const differentiators = input.differentiators.slice(0, MAX_DIFFERENTIATORS);
  const past = newestFirst(input.pastPerformance);
  const plan = (body: number, c: number, d: number, p: number) => ({
    body,
    competencies: competencies.slice(0, c),
    differentiators: differentiators.slice(0, d),
    pastPerformance: past.slice(0, p),
    leftOut: [
      ...(p < past.length
        ? [plural(past.length - p, `${p ? 'older ' : ''}past-performance entry`, `${p ? 'older ' : ''}past-performance entries`)]
        : []),
      ...(d < input.differentiators.length ? [plural(input.differentiators.length - d, 'differentiator', 'differentiators')] : []),
      ...(c < input.competencies.length ? [plural(input.competencies.length - c, 'competency', 'competencies')] : []),
    ],
  });
  const [c, d, p] = [competencies.length, differentiators.length, past.length];
  for (const body of BODY_SIZES) yield plan(body, c, d, p);
  // At the floor: the oldest past performance first (two entries kept), differentiators beyond
  // three, competencies beyond six; then the rest of each, past performance last of all.
  const floor = BODY_SIZES.at(-1)!;
  const [p2, d3, c6] = [Math.min(p, 2), Math.min(d, 3), Math.min(c, 6)];
  for (let k = p - 1; k >= p2; k--) yield plan(floor, c, d, k);
  for (let k = d - 1; k >= d3; k--) yield plan(floor, c, k, p2);
  for (let k = c - 1; k >= c6; k--) yield plan(floor, k, d3, p2);
  for (let k = d3 - 1; k >= 0; k--) yield plan(floor, c6, k, p2);
  for (let k = c6 - 1; k >= 4; k--) yield plan(floor, k, 0, p2);
  for (let k = p2 - 1; k >= 0; k--) yield plan(floor, Math.min(c6, 4), 0, k);
}

/** The columns' arrangements to try: as designed first, then a section moved to the other column. */
const ARRANGEMENTS = [
  { differentiatorsSide: false, contactMain: false },
  { differentiatorsSide: true, contactMain: false },
  { differentiatorsSide: false, contactMain: true },
  { differentiatorsSide: true, contactMain: true },
];

/**
 * The plan the page is written with: the first (largest type, most content) that fits. Where
 * content had to be left out, the arrangement whose columns end closest together is taken, so
 * that neither column stays empty at the bottom while something was left out; else the first.
 */
function choosePlan(doc: Doc, input: StatementInput, memo: Pen['memo']): Plan {
  const placed = (candidate: Omit<Plan, keyof (typeof ARRANGEMENTS)[number]>): Plan | undefined => {
    const pen = penFor(doc, candidate.body, true, memo);
    const at = (a: (typeof ARRANGEMENTS)[number]) => {
      const plan = { ...candidate, ...a };
      return { plan, placed: layBody(pen, undefined, input, plan) };
    };
    const gap = (f: ReturnType<typeof at>) => Math.abs(f.placed.mainY - f.placed.sideY);
    const first = at(ARRANGEMENTS[0]!);
    if (first.placed.fits && (candidate.leftOut.length === 0 || gap(first) <= BALANCE)) return first.plan;
    const fitting = [first, ...ARRANGEMENTS.slice(1).map(at)].filter((f) => f.placed.fits);
    return fitting.length ? fitting.reduce((best, f) => (gap(f) < gap(best) ? f : best)).plan : undefined;
  };
  const all = [...plans(input)];
  // Everything, at each body size from the largest.
  for (const candidate of all.slice(0, BODY_SIZES.length)) {
    const plan = placed(candidate);
    if (plan) return plan;
  }
  // Less at the floor: each plan holds less than the one before, so the first that fits is found
  // by halving (five layouts where trying each took twenty).
  const less = all.slice(BODY_SIZES.length);
  let [lo, hi] = [0, less.length - 1];
  let found: Plan | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const plan = placed(less[mid]!);
    if (plan) [found, hi] = [plan, mid - 1];
    else lo = mid + 1;
  }
  return found ?? { ...all.at(-1)!, ...ARRANGEMENTS[0]! };
}

/** What the statement leaves out of `input` to stay one page (none when everything fits), as the back office says it. */
export async function statementLeftOut(input: StatementInput): Promise<string[]> {
  const faces = await openFonts();
  const doc = new PDFDocument({ size: 'LETTER', autoFirstPage: true });
  for (const [name, font] of Object.entries(faces)) doc.registerFont(name, font as unknown as Buffer);
  const { leftOut } = choosePlan(doc, input, new Map());
  doc.end();
  return leftOut;
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
  const pen = penFor(doc, BODY_SIZES.at(-1)!, false, new Map());
  let y = (HEADER_HEIGHT - nameHeight - taglineHeight) / 2;
  y = block(pen, root, 'H1', name, nameX, y, nameWidth, nameStyle);
  if (tagline) block(pen, root, 'P', tagline, nameX, y + 3, nameWidth, taglineStyle);
  block(pen, root, 'P', 'CAPABILITY STATEMENT', PAGE.width - PAGE.margin - labelWidth, HEADER_HEIGHT / 2 - 5, labelWidth, {
    font: 'bold',
    size: 9,
    color: COLOR.teal300,
  });

  // The body: the largest type and the most content that fit, in the arrangement chosen for it.
  const memo: Pen['memo'] = new Map();
  const plan = choosePlan(doc, input, memo);
  layBody(penFor(doc, plan.body, false, memo), root, input, plan);

  // Footer: a rule and the website, as an artifact (the contact list already names it). It sits
  // in the bottom margin, which would otherwise start a second page.
  doc.page.margins.bottom = 0;
  artifact(doc, () => {
    doc
      .moveTo(PAGE.margin, FOOTER_TOP)
      .lineTo(PAGE.width - PAGE.margin, FOOTER_TOP)
      .lineWidth(2)
      .stroke(COLOR.brand700);
    setStyle(doc, stylesAt(BODY_SIZES.at(-1)!).meta);
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
