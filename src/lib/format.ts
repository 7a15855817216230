/**
 * The spec's display formulas (SPEC 2.9–2.12, 9), pure and shared by pages and islands.
 */
import { LIMITS } from '#shared/constants.ts';
import { splitLines } from './lines';

const CHARS_PER_MINUTE = LIMITS.wordsPerMinuteChars;

/** Read time on list cards: max(3, ceil(content length / 200)) minutes (SPEC 2.11). */
export function listReadMinutes(content: string): number {
  return Math.max(LIMITS.insightListReadMin, Math.ceil(content.length / CHARS_PER_MINUTE));
}

/** Read time on the detail page: the stored readMinutes, else ceil(content length / 200) (SPEC 2.12). */
export function detailReadMinutes(readMinutes: number | null | undefined, content: string): number {
  return readMinutes && readMinutes > 0 ? readMinutes : Math.ceil(content.length / CHARS_PER_MINUTE);
}

/** The excerpt, else the first 150 characters of the content (SPEC 2.11). */
export function excerptOf(excerpt: string | null | undefined, content: string | (() => string)): string {
  const trimmed = excerpt?.trim();
  if (trimmed) return trimmed;
  // The article's text, worked out only when there is no summary.
  return (typeof content === 'function' ? content() : content).slice(0, LIMITS.excerptFallbackChars);
}

/** 'market_analysis' → 'Market Analysis'; empty → 'General' (SPEC 2.11). */
export function categoryLabel(category: string | null | undefined): string {
  const words = (category ?? '').replace(/_/g, ' ').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'General';
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join(' ');
}

/** Bytes → '1.5 MB' (bytes / 1024², one decimal); null when the size is unknown (SPEC 2.9). */
export function fileSizeMb(bytes: number | null | undefined): string | null {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return null;
  // Under 0.1 MB in kilobytes, so a small file never reads as "0.0 MB".
  if (bytes < 0.1 * 1024 * 1024) return `${bytes === 0 ? 0 : Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Article body → paragraphs on line breaks, blank lines dropped (SPEC 2.12). */
export function paragraphs(content: string): string[] {
  return splitLines(content);
}

/**
 * About content stores 'subtitle\n\nbody' (SPEC 2.4, 3): split at the first blank line.
 * No blank line → everything is the subtitle.
 */
export function splitAboutContent(content: string): { subtitle: string; body: string } {
  const normalized = content.replace(/\r\n/g, '\n');
  const match = /\n[ \t]*\n/.exec(normalized);
  if (!match) return { subtitle: normalized.trim(), body: '' };
  return { subtitle: normalized.slice(0, match.index).trim(), body: normalized.slice(match.index + match[0].length).trim() };
}

/** One formatter for every date: `toLocaleDateString` with options builds a new one at each call. */
const LONG_DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** 'January 2, 2026' (en-US, UTC so the build machine's zone does not shift the day). */
export function formatLongDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return LONG_DATE.format(d);
}
