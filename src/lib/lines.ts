/* Contact details as the pages and the contact panel show them (a module of its own: the
 * contact page's island loads only these, not every formatter of the site). */

/** A tel: link keeps digits and '+' only (SPEC 2.10). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** Multi-line text (address, business hours) → its non-empty lines. */
export function splitLines(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}
