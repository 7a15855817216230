import type { Tx } from '../db/client';
import { enqueueMail } from '../mail/outbox';

/** The e-mails the accounts feature sends; each is queued in the caller's transaction. */
export function queueLoginCode(tx: Tx, to: string, code: string): Promise<number> {
  return enqueueMail(tx, {
    kind: 'auth.login-code',
    to,
    subject: 'Your sign-in verification code',
    text: [
      `Your verification code is ${code}`,
      '',
      'Enter it on the sign-in page to finish signing in. It can be used once and expires in 10 minutes.',
      'If you did not try to sign in, change your password: someone knows it.',
    ].join('\n'),
  });
}

export function queueLockoutNotice(tx: Tx, to: string, minutes: number): Promise<number> {
  return enqueueMail(tx, {
    kind: 'auth.lockout',
    to,
    subject: 'Your account was locked after failed sign-in attempts',
    text: [
      `Five sign-in attempts in a row failed, so your account is locked for ${minutes} minutes.`,
      '',
      'If this was you, wait and try again. If it was not, someone may be guessing your password:',
      'after signing in, change it from the Account tab and turn on two-factor authentication.',
    ].join('\n'),
  });
}

export function queuePasswordResetLink(tx: Tx, to: string, link: string, minutes: number): Promise<number> {
  return enqueueMail(tx, {
    kind: 'auth.password-reset',
    to,
    subject: 'Reset your password',
    text: [
      'Someone asked to reset the password of your account. To choose a new password, open this link:',
      '',
      link,
      '',
      `It can be used once and expires in ${minutes} minutes. Every signed-in session ends when the password changes;`,
      'if two-factor authentication is on, signing in still asks for your code.',
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
  });
}

const from = (ip?: string) => (ip ? ` (from the address ${ip})` : '');

export function queueProviderLinked(tx: Tx, to: string, provider: string, ip?: string): Promise<number> {
  return enqueueMail(tx, {
    kind: 'auth.provider-linked',
    to,
    subject: `A ${provider} sign-in was linked to your account`,
    text: [
      `Someone signed in with ${provider} and entered your account's password${from(ip)}, so that ${provider} account`,
      'can now sign into yours.',
      '',
      'If this was you, there is nothing to do. If it was not, sign in, remove the link in the Account tab',
      '(Linked sign-ins), change your password and turn on two-factor authentication.',
    ].join('\n'),
  });
}

export function queueProviderUnlinked(tx: Tx, to: string, provider: string, ip?: string): Promise<number> {
  return enqueueMail(tx, {
    kind: 'auth.provider-unlinked',
    to,
    subject: `A ${provider} sign-in was removed from your account`,
    text: [
      `The ${provider} sign-in linked to your account was removed${from(ip)}; it no longer signs into it.`,
      '',
      'If this was not you, sign in and change your password: someone else has been in your account.',
    ].join('\n'),
  });
}
