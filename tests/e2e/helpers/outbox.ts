import fs from 'node:fs';
import path from 'node:path';
import { e2eOutbox } from '../servers.mjs';

/**
 * The messages the e2e server's local outbox has written (.eml files, soft line breaks of
 * quoted-printable joined) that contain every given text.
 */
export function outboxMailsWith(...texts: string[]): string[] {
  const dir = e2eOutbox();
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, ''))
    .filter((eml) => texts.every((t) => eml.includes(t)));
}
