/** What the public pages read of a document to offer it. */
export interface OfferableDocument {
  category: string;
  isActive: boolean;
  filePath: string | null;
}

/** The document the site offers for a kind (capability, onboarding): the first active one with a file (SPEC 2.9). */
export function offeredDocument<D extends OfferableDocument>(documents: readonly D[], kind: string): D | undefined {
  return documents.find((d) => d.isActive && d.category === kind && d.filePath);
}
