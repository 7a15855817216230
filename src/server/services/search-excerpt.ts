import { stemmer } from 'stemmer';

/*
 * The passage a search result shows: a few dozen words of the article's plain text (prepared when
 * it was saved) around the first place its words match, those words marked. Cut here, far faster
 * than PostgreSQL's ts_headline over a long article, which would run on the embedded database's
 * thread, the thread that also answers every visitor.
 *
 * A word of the text matches a searched word when they are the same word (case folded), share
 * their stem (Porter's stemmer: "vetted" and "vetting"), or, for the last word searched (the
 * visitor may still be typing it), when it starts with it. The full-text index decided which
 * articles match; this only shows where.
 */

export type ExcerptPart = { text: string; mark?: true };

/** Words shown before the first match, and in all. */
const BEFORE = 8;
const WORDS = 32;

const WORD = /[\p{L}\p{N}]+/gu;

interface Term {
  word: string;
  stem: string;
  prefix: boolean;
}

function matches(token: string, terms: readonly Term[]): boolean {
  const lower = token.toLowerCase();
  return terms.some(
    (t) =>
      lower === t.word ||
      (t.prefix && lower.startsWith(t.word)) ||
      // Stemming keeps a word's first letters: only a word that starts like the stem is stemmed.
      (lower.startsWith(t.stem.slice(0, 3)) && stemmer(lower) === t.stem),
  );
}

/** Runs of white space (line breaks between paragraphs included) read as one space. */
const spaced = (text: string) => text.replace(/\s+/g, ' ');

/** Where the first word of `text` matching one of `terms` starts, or -1. */
function firstMatch(text: string, terms: readonly Term[]): number {
  let first = -1;
  for (const term of terms) {
    // Only where the text has the stem's first letters (found by the regular expression engine's
    // own search, case-insensitive) is a word read and compared.
    const key = new RegExp(term.stem.slice(0, 3).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
    for (const m of text.matchAll(key)) {
      if (first >= 0 && m.index >= first) break;
      if (m.index > 0 && IS_WORD.test(text[m.index - 1]!)) continue;
      WORD_AT.lastIndex = m.index;
      const word = WORD_AT.exec(text)?.[0];
      if (word && matches(word, [term])) {
        first = m.index;
        break;
      }
    }
  }
  return first;
}

const IS_WORD = /[\p{L}\p{N}]/u;
const WORD_AT = /[\p{L}\p{N}]+/uy;
/** Enough text around a match for the words shown (a word is rarely longer than 40 letters). */
const REACH = 40 * (WORDS + 1);

/** The words of `text` from `from` to `to`, with their places in `text`. */
function wordsIn(text: string, from: number, to: number): [start: number, word: string][] {
  return [...text.slice(from, to).matchAll(WORD)].map((m) => [from + m.index, m[0]]);
}

/**
 * The passage of `text` around the first word matching `words` (lower case, the last one a
 * prefix): up to 8 words before it, 32 in all, as parts with the matching words marked. The
 * text's first 32 words when nothing in it matches (an article found by its title or author).
 */
export function searchExcerpt(text: string, words: readonly string[]): ExcerptPart[] {
  const terms: Term[] = words.map((word, i) => ({ word, stem: stemmer(word), prefix: i === words.length - 1 }));
  const first = firstMatch(text, terms);
  if (first < 0) {
    const opening = wordsIn(text, 0, REACH).slice(0, WORDS).at(-1);
    return opening ? [{ text: spaced(text.slice(0, opening[0] + opening[1].length)).trim() }] : [];
  }
  // The words before the match (the first one dropped if the slice cut into it), then from it on.
  const back = Math.max(0, first - REACH);
  const before = wordsIn(text, back, first)
    .slice(back > 0 ? 1 : 0)
    .slice(-BEFORE);
  const shown = [...before, ...wordsIn(text, first, first + REACH)].slice(0, WORDS);
  const parts: ExcerptPart[] = [];
  let at = shown[0]![0];
  for (const [start, word] of shown) {
    if (!matches(word, terms)) continue;
    if (start > at) parts.push({ text: spaced(text.slice(at, start)) });
    parts.push({ text: word, mark: true });
    at = start + word.length;
  }
  const [lastStart, lastWord] = shown.at(-1)!;
  if (lastStart + lastWord.length > at) parts.push({ text: spaced(text.slice(at, lastStart + lastWord.length)) });
  return parts;
}
