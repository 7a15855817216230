/** What the public pages read of a document to offer it. */
export interface OfferableDocument {
  category: string;
  isActive: boolean;
  filePath: string | null;
}

/** Where a release serves the capability statement the publisher writes from the site's data. */
export const GENERATED_STATEMENT_PATH = '/capability-statement.pdf';

/** The generated statement as the pages offer it (a document the release holds, not an upload). */
export const GENERATED_STATEMENT = {
  title: 'Capability Statement',
  category: 'capability',
  isActive: true,
  filePath: GENERATED_STATEMENT_PATH,
  fileName: 'capability-statement.pdf',
} as const;

/** The first active uploaded document of a kind (capability, onboarding) with a file (SPEC 2.9). */
function uploadedDocument<D extends OfferableDocument>(documents: readonly D[], kind: string): (D & { filePath: string }) | undefined {
  return documents.find((d): d is D & { filePath: string } => d.isActive && d.category === kind && Boolean(d.filePath));
}

/**
 * Whether the site offers the generated capability statement: as the owner chose in the Documents
 * tab; until she chooses, whenever no uploaded capability statement is active (a new install
 * offers the generated one, an install that had uploaded one keeps offering it).
 */
export function usesGeneratedStatement(documents: readonly OfferableDocument[], useGenerated: boolean | null | undefined): boolean {
  return useGenerated ?? !uploadedDocument(documents, 'capability');
}

/** What the pages read to choose the capability document: the documents and the owner's choice. */
export interface DocumentChoice<D extends OfferableDocument = OfferableDocument> {
  documents: readonly D[];
  /** The Documents tab's "Use generated statement"; null until the owner sets it. */
  useGenerated?: boolean | null;
}

/**
 * The document the site offers for a kind: for the capability statement the generated one when it
 * is in use, else (and for every other kind) the first active uploaded one with a file.
 */
export function offeredDocument<D extends OfferableDocument>(
  { documents, useGenerated }: DocumentChoice<D>,
  kind: string,
): (D & { filePath: string }) | typeof GENERATED_STATEMENT | undefined {
  if (kind === 'capability' && usesGeneratedStatement(documents, useGenerated)) return GENERATED_STATEMENT;
  return uploadedDocument(documents, kind);
}

/** The documents and the owner's choice, as a content snapshot holds them. */
export function documentChoice<D extends OfferableDocument>(content: {
  documents: readonly D[];
  capabilityStatement?: { useGenerated: boolean | null } | null;
}): DocumentChoice<D> {
  return { documents: content.documents, useGenerated: content.capabilityStatement?.useGenerated ?? null };
}
