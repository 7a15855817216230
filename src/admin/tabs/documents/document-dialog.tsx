import { useRef, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '#components/ui/button.tsx';
import { useToast } from '#components/ui/toast.tsx';
import { DOCUMENT_CATEGORIES, DOCUMENT_CATEGORY_LABELS, LIMITS } from '#shared/constants.ts';
import { DOCUMENT_NOT_PDF, DOCUMENT_TOO_LARGE, NO_FILE_UPLOADED, documentSchema } from '#shared/schemas/document.ts';
import { fileSizeMb } from '#lib/format.ts';
import {
  DocumentUploadError,
  uploadDocumentFile,
  useCreateDocument,
  useUpdateDocument,
  type AdminDocument,
  type UploadedFile,
} from '../../api/documents';
import { ProgressBar } from '../../components/progress-bar';
import { SchemaForm, type FieldSpec } from '../../components/schema-form';
import { FormDialog } from '../../components/unsaved-changes';

const FIELDS: FieldSpec[] = [
  { name: 'title', label: 'Title' },
  { name: 'description', label: 'Description (optional)', kind: 'textarea', rows: 3 },
  {
    name: 'category',
    label: 'Category',
    kind: 'select',
    options: DOCUMENT_CATEGORIES.map((c) => ({ value: c, label: DOCUMENT_CATEGORY_LABELS[c] })),
  },
  { name: 'displayOrder', label: 'Display order', kind: 'number' },
  { name: 'isActive', label: 'Active (shown on the website)', kind: 'switch' },
];

/** The form edits the document's own fields; the file's details come from the upload. */
const formSchema = documentSchema.pick({ title: true, description: true, category: true, isActive: true, displayOrder: true });
const MAX_MB = LIMITS.documentMaxBytes / (1024 * 1024);

/** SPEC 5: 'No file uploaded - Please upload a file before creating the document.' as a toast's title and text. */
const [NO_FILE_TITLE, NO_FILE_TEXT] = NO_FILE_UPLOADED.split(' - ') as [string, string];
const isPdf = (file: File) => file.type === 'application/pdf' || file.name.toLowerCase().endsWith('.pdf');

interface Props {
  document: AdminDocument | 'new' | null;
  onClose: () => void;
}

/** SPEC 2.15 Documents tab: the Upload dialog (PDF, then the metadata) and the Edit dialog (metadata only). */
export function DocumentDialog({ document, onClose }: Props) {
  const current = document === 'new' ? undefined : (document ?? undefined);
  const create = useCreateDocument();
  const update = useUpdateDocument();
  const toast = useToast();
  const [uploaded, setUploaded] = useState<UploadedFile | null>(null);
  const close = () => {
    setUploaded(null);
    onClose();
  };

  return (
    <FormDialog open={document !== null} onClose={close} title={current ? 'Edit Document' : 'Upload Document'}>
      {document !== null && (
        <SchemaForm
          key={current ? `${current.id}-${current.version}` : 'new'}
          schema={formSchema as unknown as z.ZodType<FieldValues, FieldValues>}
          fields={FIELDS}
          defaultValues={{
            title: current?.title ?? '',
            description: current?.description ?? '',
            category: current?.category ?? 'capability',
            displayOrder: current?.displayOrder ?? 0,
            isActive: current?.isActive ?? true,
          }}
          before={current ? undefined : (form) => <PdfUpload form={form} uploaded={uploaded} onUploaded={setUploaded} />}
          submitLabel={current ? 'Save Changes' : 'Create Document'}
          onCancel={close}
          onSubmit={async (values) => {
            if (current) {
              await update.mutateAsync({ id: current.id, version: current.version, values });
            } else if (!uploaded) {
              toast({ title: NO_FILE_TITLE, description: NO_FILE_TEXT, variant: 'destructive' });
              return;
            } else {
              await create.mutateAsync({ ...values, ...uploaded });
            }
            close();
          }}
        />
      )}
    </FormDialog>
  );
}

/** The PDF picker of the Upload dialog: checks the file, uploads it with progress, fills an empty title. */
function PdfUpload({
  form,
  uploaded,
  onUploaded,
}: {
  form: UseFormReturn<FieldValues>;
  uploaded: UploadedFile | null;
  onUploaded: (file: UploadedFile | null) => void;
}) {
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');

  const refuse = (title: string, description: string) => {
    setError(description);
    toast({ title, description, variant: 'destructive' });
  };

  async function choose(files: FileList | null) {
    const file = files?.[0];
    if (!file) return;
    if (file.size > LIMITS.documentMaxBytes) return refuse('File too large', DOCUMENT_TOO_LARGE);
    if (!isPdf(file)) return refuse('Invalid file type', DOCUMENT_NOT_PDF);
    setError('');
    onUploaded(null);
    // SPEC 2.15: an empty title takes the file name without its extension.
    if (!String(form.getValues('title') ?? '').trim()) {
      form.setValue('title', file.name.replace(/\.[^.]+$/, ''), { shouldDirty: true });
    }
    setProgress(0);
    try {
      const result = await uploadDocumentFile(file, setProgress);
      // No toast yet: the file is stored but the document exists only once Create Document is chosen.
      onUploaded(result);
    } catch (err) {
      const reason = err instanceof DocumentUploadError ? err : null;
      if (reason?.stage === 'url') refuse('Failed to get upload URL', reason.message);
      else {
        setError(reason?.message || 'There was an error uploading your file. Please try again.');
        toast({ title: 'Upload failed', description: 'There was an error uploading your file. Please try again.', variant: 'destructive' });
      }
    } finally {
      setProgress(null);
    }
  }

  return (
    <div className="space-y-2 rounded-md border-2 border-dashed border-slate-400 p-4">
      <p className="text-sm font-medium text-ink">PDF file</p>
      <p className="text-xs text-muted" id="document-file-help">
        One PDF, up to {MAX_MB}MB.
      </p>
      <Button size="sm" onClick={() => input.current?.click()} disabled={progress !== null} aria-describedby="document-file-help">
        {uploaded ? 'Replace PDF' : 'Choose PDF'}
      </Button>
      <input
        ref={input}
        type="file"
        accept="application/pdf,.pdf"
        className="hidden"
        tabIndex={-1}
        aria-label="PDF file"
        onChange={(e) => {
          void choose(e.target.files);
          e.target.value = '';
        }}
      />
      {progress !== null && <ProgressBar value={progress} label="Uploading the PDF" />}
      {uploaded && (
        <p className="text-sm text-ink">
          Uploaded: <span className="font-medium break-all">{uploaded.fileName}</span> ({fileSizeMb(uploaded.fileSize)}). Choose Create
          Document to add it.
        </p>
      )}
      <div role="alert" className="text-sm text-danger empty:absolute">
        {error}
      </div>
    </div>
  );
}
