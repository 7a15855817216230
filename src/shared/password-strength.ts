import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonWords } from '@zxcvbn-ts/language-common';
import { dictionary as englishWords, translations } from '@zxcvbn-ts/language-en';

/**
 * New passwords must not be easy to guess (ASVS V2.1.7): zxcvbn rates them against lists of
 * common passwords, names and words, keyboard patterns, dates and repeats, and against words of
 * this site and of the account itself. Imported where a new password is chosen only (the server,
 * and the Change Password card on demand): its word lists are large.
 */
const MIN_SCORE = 3;
const SITE_WORDS = ['sterling', 'federal', 'procurement', 'admin', 'administrator', 'password', 'wosb', 'gsa'];

let factory: ZxcvbnFactory | undefined;
const estimator = () =>
  (factory ??= new ZxcvbnFactory({
    dictionary: { ...commonWords, ...englishWords },
    graphs: adjacencyGraphs,
    translations,
  }));

/** What is wrong with a new password, in words for the person choosing it; null when it will do. */
export function passwordProblem(password: string, context: readonly string[] = []): string | null {
  if (!password.trim()) return 'Choose a password that is not only spaces.';
  const words = [...SITE_WORDS, ...context.flatMap((c) => [c, ...c.toLowerCase().split(/[^a-z0-9]+/)]).filter((w) => w.length >= 3)];
  const result = estimator().check(password, words);
  if (result.score >= MIN_SCORE) return null;
  const why = result.feedback.warning ? ` ${result.feedback.warning.replace(/\.?$/, '.')}` : '';
  return `This password is too easy to guess.${why} Try a longer phrase of unrelated words.`;
}
