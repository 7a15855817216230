/**
 * Example values that must never pass for the business's real contact details: an inquiry
 * e-mailed to one reaches nobody, and a buyer who sees one on a page cannot reach the business.
 * Browser-safe: the back office's checklist and the server use the same rules.
 */
import { FALLBACK_CONTACT_INFO } from './fallbacks';

/**
 * Domains reserved for documentation and testing (RFC 2606 and RFC 6761): example.com, .net and
 * .org with their subdomains, and the top-level names .example, .test, .invalid and .localhost.
 */
const RESERVED_DOMAIN = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;

/** The domain part of an address, lower-cased, without a trailing dot; '' when there is none. */
function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0
    ? ''
    : address
        .slice(at + 1)
        .trim()
        .toLowerCase()
        .replace(/\.$/, '');
}

/** An e-mail address at a reserved domain (info@example.com, sales@acme.test, root@localhost). */
export function isPlaceholderEmail(address: string | null | undefined): boolean {
  if (!address) return false;
  return RESERVED_DOMAIN.test(domainOf(address));
}

/**
 * A fictional North American number: 555-0100 to 555-0199 (with or without an area code), or any
 * number in the unassigned area code 555, such as the seeded (555) 010-0100.
 */
export function isPlaceholderPhone(phone: string | null | undefined): boolean {
  if (!phone) return false;
  let digits = phone.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (digits.length === 7) return /^55501\d\d$/.test(digits);
  if (digits.length !== 10) return false;
  return digits.startsWith('555') || /^\d{3}55501\d\d$/.test(digits);
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The seeded example street address ('Suite 100, Washington, DC 20001'), however it is spaced. */
export function isPlaceholderAddress(address: string | null | undefined): boolean {
  if (!address) return false;
  return normalise(address) === normalise(FALLBACK_CONTACT_INFO.address);
}

interface ContactFields {
  email: string;
  phone: string;
  address: string;
  displayEmail: boolean;
  displayPhone: boolean;
  displayAddress: boolean;
}

/**
 * A contact record as the public may see it: each placeholder field is treated as not displayed
 * (its flag off, its value left out), so pages, the live API and the contact form's fallbacks
 * show only real ways to reach the business, and the specification's "unavailable" texts apply
 * when nothing is left.
 */
export function withoutPlaceholders<T extends ContactFields>(info: T): T {
  return {
    ...info,
    ...(isPlaceholderEmail(info.email) ? { email: '', displayEmail: false } : {}),
    ...(isPlaceholderPhone(info.phone) ? { phone: '', displayPhone: false } : {}),
    ...(isPlaceholderAddress(info.address) ? { address: '', displayAddress: false } : {}),
  };
}
