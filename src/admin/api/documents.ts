import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import { fileSizeMb } from '#lib/format.ts';
import type { DocumentCategory } from '#shared/constants.ts';
import type { DocumentUploadResult, DocumentUploadSlot } from '#shared/responses.ts';
import type { Versioned } from '#shared/schemas/stored.ts';
import { useAdminMutation } from './mutation';
import { sendWithProgress } from './upload';

/** A document as GET /api/documents answers it (SPEC 3 "Document"). */
export interface AdminDocument extends Versioned {
  title: string;
  description: string | null;
  category: DocumentCategory;
  isActive: boolean;
  displayOrder: number;
  filePath: string;
  fileName: string;
  fileSize: number | null;
  fileType: string | null;
  createdAt: string;
}

/** The stored file a new document points to: what the upload answered. */
export interface UploadedFile {
  filePath: string;
  fileName: string;
  fileSize: number;
  fileType: string;
}

const documentKeys = { list: ['documents'] as const };

/** Every document, inactive ones too (an administrator's GET /api/documents). */
export const documentsQuery = queryOptions({
  queryKey: documentKeys.list,
  queryFn: () => api.get<AdminDocument[]>('/api/documents'),
});

type Metadata = Record<string, unknown>;

/** The public page that lists the active documents ("View on site" after a change). */
const CAPABILITIES = '/capabilities';

export function useCreateDocument() {
  return useAdminMutation<Metadata & UploadedFile, AdminDocument>({
    mutationFn: (values) => api.post<AdminDocument>('/api/documents', values),
    invalidate: [documentKeys.list],
    success: 'Document created',
    // Said once the document exists, with the size the server stored.
    successDetail: (_, doc) => `${doc.fileName} has been uploaded successfully (${fileSizeMb(doc.fileSize) ?? 'unknown size'})`,
    page: () => CAPABILITIES,
    failure: 'Error creating document',
  });
}

export function useUpdateDocument() {
  return useAdminMutation<{ id: number; version: number; values: Metadata }, AdminDocument>({
    mutationFn: ({ id, version, values }) => api.put<AdminDocument>(`/api/documents/${id}`, { ...values, version }),
    invalidate: [documentKeys.list],
    success: 'Document updated',
    page: () => CAPABILITIES,
    failure: 'Error updating document',
  });
}

export function useDeleteDocument() {
  return useAdminMutation<number>({
    mutationFn: (id) => api.delete(`/api/documents/${id}`),
    invalidate: [documentKeys.list],
    success: 'Document deleted',
    page: () => CAPABILITIES,
    failure: 'Error deleting document',
  });
}

/** Why an upload failed: no upload URL, or the PUT was refused (with the server's message). */
export class DocumentUploadError extends Error {
  constructor(
    readonly stage: 'url' | 'put',
    message: string,
  ) {
    super(message);
    this.name = 'DocumentUploadError';
  }
}

/**
 * SPEC 4 upload flow: obtain an upload URL, then PUT the PDF's bytes to it with XMLHttpRequest so
 * `onProgress` follows the transfer. Resolves with the stored file's details.
 */
export async function uploadDocumentFile(file: File, onProgress: (percent: number) => void): Promise<UploadedFile> {
  let uploadURL: string;
  try {
    ({ uploadURL } = await api.post<DocumentUploadSlot>('/api/documents/upload'));
  } catch {
    throw new DocumentUploadError('url', 'Failed to get upload URL');
  }
  const answer = await sendWithProgress<DocumentUploadResult>({
    method: 'PUT',
    url: uploadURL,
    body: file,
    contentType: 'application/pdf',
    onProgress,
  }).catch(() => {
    throw new DocumentUploadError('put', '');
  });
  const { status, body } = answer;
  if (status < 200 || status >= 300 || !body.url) throw new DocumentUploadError('put', body.message ?? '');
  return { filePath: body.url, fileName: file.name, fileSize: body.fileSize ?? file.size, fileType: 'application/pdf' };
}

/** GET /api/admin/capability-statement: the owner's choice and whether the site offers the generated statement. */
export interface CapabilityStatementState {
  /** Null until the owner sets it: the site then offers the generated statement unless an uploaded one is active. */
  useGenerated: boolean | null;
  inUse: boolean;
  url: string;
  /** What the generated statement leaves out to stay one page, e.g. "2 older past-performance entries". */
  leftOut: string[];
  /** An uploaded capability statement is active (the site offers it when the generated one is off). */
  uploadedActive: boolean;
}

// Under the documents' key: a document change (which can change `inUse`) refetches it too.
const capabilityKey = [...documentKeys.list, 'capability-statement'] as const;

export const capabilityStatementQuery = queryOptions({
  queryKey: capabilityKey,
  queryFn: () => api.get<CapabilityStatementState>('/api/admin/capability-statement'),
});

/** PUT /api/admin/capability-statement: "Use generated statement" on or off; publishes. */
export function useSetGeneratedStatement() {
  return useAdminMutation<boolean, CapabilityStatementState>({
    mutationFn: (useGenerated) => api.put<CapabilityStatementState>('/api/admin/capability-statement', { useGenerated }),
    invalidate: [capabilityKey],
    success: (on) => (on ? 'The site offers the generated capability statement' : 'The generated capability statement is turned off'),
    successDetail: (on, result) =>
      on
        ? ''
        : result.uploadedActive
          ? 'Buyers can download the uploaded capability statement.'
          : 'Buyers have no capability statement to download until you upload one in Documents.',
    failure: 'Failed to change the capability statement',
    page: () => CAPABILITIES,
  });
}
