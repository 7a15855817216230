import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { env } from './env';

/**
 * Passwords are hashed with scrypt (memory-hard) on libuv's thread pool, so hashing never blocks
 * the event loop. Parameters follow OWASP's password storage cheat sheet (N=2^15, r=8, p=3) and
 * are stored with each hash so they can be raised later without breaking old hashes.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 3 } as const;
/**
 * Under NODE_ENV=test only (vitest sets it; `npm start` and every deployment never do): a small N,
 * as Django's and Rails' test settings do, so the suites' hundreds of sign-ins cost a millisecond
 * each instead of 0.4 s of CPU. The code is the same; each hash names its own parameters, so
 * nothing outside the tests ever holds or accepts weaker ones than it was hashed with.
 */
const TEST_PARAMS = { N: 2 ** 10, r: 8, p: 1 } as const;
const hashParams = () => (env().NODE_ENV === 'test' ? TEST_PARAMS : PARAMS);
const KEY_LEN = 64;

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

const maxmem = (N: number, r: number, p: number) => 128 * N * r * p + 32 * 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = hashParams();
  const key = await scrypt(password, salt, KEY_LEN, { N, r, p, maxmem: maxmem(N, r, p) });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  const parts = hash.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltB64, keyB64] = parts;
  const N = Number(n),
    R = Number(r),
    P = Number(p);
  if (![N, R, P].every((x) => Number.isInteger(x) && x > 0)) return false;
  const expected = Buffer.from(keyB64!, 'base64');
  const actual = await scrypt(password, Buffer.from(saltB64!, 'base64'), expected.length, {
    N,
    r: R,
    p: P,
    maxmem: maxmem(N, R, P),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password: unknown users are "checked" against it so timing does not reveal them. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
