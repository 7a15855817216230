/**
 * `npm run bench -- capability`: how long the publisher takes to write the capability statement
 * and how large it is. The statement is made from a full profile (UEI, CAGE, SAM, six NAICS codes,
 * two certifications), eight services, five why-choose-us cards, real contact details, a 480 × 240
 * PNG logo and twelve past-performance entries (as many as fit are printed), the way the release
 * builder makes it (statement-input.ts, then statement-pdf.ts) but without the page renderer around
 * it. Reported: the first statement of a process (it also decompresses the three fonts), the
 * median and the slowest of BENCH_CAPABILITY_ROUNDS (30) after it, and the file's size (goals:
 * a median ≤ 60 ms and 200 KB), and what the page left out.
 */
import sharp from 'sharp';
import { capabilityStatementPdf, statementLeftOut, type PastPerformanceEntry } from '../../src/server/capability/statement-pdf';
import { statementInput } from '../../src/server/capability/statement-input';
import type { SiteContent } from '../../src/server/content/site-content';
import { STARTING_COMPANY } from '../../src/shared/company';
import { median } from './shared';

const ROUNDS = Number(process.env.BENCH_CAPABILITY_ROUNDS ?? 30);
const at = '2026-11-01T00:00:00.000Z';
const text = (n: number) => 'Delivered on time and within budget for agencies that needed compliant supply. '.repeat(n).trim();

const content = {
  company: {
    ...STARTING_COMPANY,
    legalName: 'Harbor Federal Supply LLC',
    uei: 'ABCDEFGH1234',
    cageCode: '7X2K9',
    samActive: true,
    samExpiresOn: '2027-05-01',
    certifications: [
      { name: 'WOSB', identifier: 'SBA-778', expiresOn: '2027-06-30' },
      { name: 'ISO 9001:2015', identifier: null, expiresOn: '2028-01-15' },
    ],
    pscCodes: ['7030', '7025', 'R408'],
    contractVehicles: [
      { name: 'GSA MAS', number: '47QSWA24D0001' },
      { name: 'VA FSS BPA', number: '36C10X24A0042' },
    ],
    founderName: 'Dana Reyes',
    founderTitle: 'President',
    contactPersonEmail: 'dana@harbor-federal.com',
    contactPersonPhone: '(703) 555-0101',
    updatedAt: at,
  },
  services: Array.from({ length: 8 }, (_, n) => ({ id: n + 1, title: `Service line ${n + 1}`, description: text(3), updatedAt: at })),
  aboutFeatures: Array.from({ length: 5 }, (_, n) => ({
    id: n + 1,
    title: `Differentiator ${n + 1}`,
    description: text(2),
    updatedAt: at,
  })),
  homeFeatures: [],
  federalFeatures: Array.from({ length: 4 }, (_, n) => ({
    id: 20 + n,
    title: `Product line ${n + 1}`,
    description: text(1),
    updatedAt: at,
  })),
  contactInfo: {
    email: 'bids@harbor-federal.com',
    phone: '(703) 555-1234',
    address: '1 Harbor Way, Norfolk, VA 23510',
    displayEmail: true,
    displayPhone: true,
    displayAddress: true,
    updatedAt: at,
  },
  header: null,
} as unknown as SiteContent;

const pastPerformance: PastPerformanceEntry[] = Array.from({ length: 12 }, (_, n) => ({
  customer: 'Department of Veterans Affairs',
  title: `Medical supplies BPA ${n + 1}`,
  summary: text(7).slice(0, 600),
  periodStart: `${2014 + n}-03`,
  periodEnd: n === 11 ? null : `${2015 + n}-02`,
  contractType: 'Firm-fixed-price',
  value: 1_250_000,
  showValue: true,
  naicsCode: '423450',
  isActive: true,
  displayOrder: n,
}));

async function once(logo: Buffer): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const { input, createdAt, website } = await statementInput(content, 'https://www.harbor-federal.com', pastPerformance);
  const pdf = await capabilityStatementPdf({ ...input, logo: { data: logo, alt: 'Harbor Federal Supply logo' } }, { website, createdAt });
  return { ms: performance.now() - started, bytes: pdf.byteLength };
}

export async function run() {
  const logo = await sharp({ create: { width: 480, height: 240, channels: 3, background: '#0f766e' } })
    .png()
    .toBuffer();
  const first = await once(logo);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const r = await once(logo);
    times.push(r.ms);
    bytes = r.bytes;
  }
  const { input } = await statementInput(content, 'https://www.harbor-federal.com', pastPerformance);
  const result = {
    leftOut: (await statementLeftOut(input)).join('; '),
    firstMs: Math.round(first.ms),
    medianMs: Math.round(median(times)),
    slowestMs: Math.round(Math.max(...times)),
    kilobytes: Math.round(bytes / 102.4) / 10,
  };
  console.table([result]);
  return result;
}
