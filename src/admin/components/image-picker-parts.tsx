import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useRef, useState, type DragEvent, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Input } from '#components/ui/input.tsx';
import { LIMITS } from '#shared/constants.ts';
import { imageTypeOfUrl } from '#shared/images.ts';
import { uploadNameQuery } from '../api/images';
import type { PickerRules, useImagePicker } from './use-image-picker';

/** What the picker's hook gives its parts. */
type Picker = ReturnType<typeof useImagePicker>;

// Loaded on the first Choose from library, then kept mounted (its focus return and its query).
const ImageLibraryDialog = lazy(() => import('./image-library-dialog').then((m) => ({ default: m.ImageLibraryDialog })));

export function PickerLegend({ label, required }: { label: string; required?: boolean }) {
  return (
    <legend className="px-1 text-sm font-medium text-ink">
      {label}
      {required && (
        <span className="text-danger" aria-hidden="true">
          {' '}
          *
        </span>
      )}
      {required && <span className="sr-only"> (required)</span>}
    </legend>
  );
}

/** The image chosen (or the one uploading), its file name, and Remove. */
export function ImagePreview(props: {
  preview: string;
  url: string;
  alt: string;
  label: string;
  picker: Pick<Picker, 'pending' | 'busy' | 'remove'>;
  /** The URL whose preview failed to load. */
  broken: string;
  onBroken: (url: string) => void;
}) {
  const { preview, url, alt, label, broken, onBroken } = props;
  const { pending, busy, remove } = props.picker;
  const uploadName = useQuery({ ...uploadNameQuery(url), enabled: Boolean(url) && !pending });
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <img
        src={preview}
        alt={alt ? `Preview: ${alt}` : `Preview of the ${label.toLowerCase()}`}
        className="bg-checkerboard h-28 w-fit max-w-full rounded-md border border-line object-contain sm:max-w-xs"
        onError={() => onBroken(preview)}
      />
      <div className="min-w-0 flex-1 space-y-2">
        <p className="text-xs break-all text-muted">{pending ? 'Uploading…' : (uploadName.data ?? url)}</p>
        {!pending && (
          <Button size="sm" variant="secondary" onClick={() => void remove()} disabled={busy}>
            Remove image
          </Button>
        )}
        {broken === url && !pending && <p className="text-sm text-danger">Image failed to load. The URL may be invalid or inaccessible.</p>}
      </div>
    </div>
  );
}

/** The area a file can be dropped on or pasted into. */
export function DropZone({
  replacing,
  picker,
  children,
}: {
  replacing: boolean;
  picker: Pick<Picker, 'busy' | 'upload'>;
  children: ReactNode;
}) {
  const [dragging, setDragging] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!picker.busy) void picker.upload(e.dataTransfer.files);
  };
  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      onPaste={(e) => {
        if (e.clipboardData.files.length > 0) {
          e.preventDefault();
          void picker.upload(e.clipboardData.files);
        }
      }}
      className={`rounded-md border-2 border-dashed p-3 text-center text-sm ${dragging ? 'border-brand-700 bg-brand-50' : 'border-slate-400'}`}
    >
      <p className="text-muted">{replacing ? 'Drop another image here to replace it, or' : 'Drag and drop an image here, or'}</p>
      {children}
    </div>
  );
}

/** Select Image (a file of this computer) and Choose from library (an image already uploaded). */
export function ImageSources({
  label,
  rules,
  picker,
}: {
  label: string;
  rules: PickerRules;
  picker: Pick<Picker, 'busy' | 'upload' | 'setImage' | 'selectButton'>;
}) {
  const { busy, upload, setImage, selectButton } = picker;
  const fileInput = useRef<HTMLInputElement>(null);
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [libraryMounted, setLibraryMounted] = useState(false);
  return (
    <>
      <div className="mt-2 flex flex-wrap justify-center gap-2">
        <Button ref={selectButton} size="sm" onClick={() => fileInput.current?.click()} disabled={busy}>
          Select Image
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => {
            setLibraryMounted(true);
            setLibraryOpen(true);
          }}
          disabled={busy}
        >
          Choose from library
        </Button>
      </div>
      {libraryMounted && (
        <Suspense fallback={null}>
          <ImageLibraryDialog
            open={libraryOpen}
            onOpenChange={setLibraryOpen}
            fieldLabel={label}
            accepts={(chosen) => rules.types.some((t) => imageTypeOfUrl(chosen).startsWith(t))}
            onChoose={(chosen) => {
              setLibraryOpen(false);
              setImage(chosen);
            }}
          />
        </Suspense>
      )}
      <input
        ref={fileInput}
        type="file"
        accept={rules.accept}
        className="hidden"
        tabIndex={-1}
        aria-label={`${label} file`}
        onChange={(e) => {
          void upload(e.target.files);
          e.target.value = '';
        }}
      />
    </>
  );
}

/** An image by its address: typed or pasted, then Add (or Enter). */
export function UrlField({ id, picker }: { id: string; picker: Pick<Picker, 'pasted' | 'setPasted' | 'addUrl' | 'busy'> }) {
  const { pasted, setPasted, addUrl, busy } = picker;
  const onUrlKey = (e: KeyboardEvent) => {
    // Enter adds the URL; it must not submit the surrounding form.
    if (e.key === 'Enter') {
      e.preventDefault();
      void addUrl();
    }
  };
  return (
    <div>
      <label htmlFor={`${id}-url`} className="mb-1 block text-sm text-ink">
        or paste a URL
      </label>
      <div className="flex gap-2">
        <Input
          className="min-w-0"
          id={`${id}-url`}
          type="url"
          inputMode="url"
          placeholder="https://"
          value={pasted}
          onChange={(e) => setPasted(e.target.value)}
          onKeyDown={onUrlKey}
          disabled={busy}
        />
        <Button variant="secondary" className="shrink-0" onClick={() => void addUrl()} disabled={busy}>
          Add
        </Button>
      </div>
    </div>
  );
}

/** Images offered as one-click choices (SPEC 2.15 suggested header backgrounds). */
export function Suggestions(props: {
  suggestions: readonly { label: string; value: string }[];
  url: string;
  picker: Pick<Picker, 'setImage' | 'busy'>;
}) {
  const { suggestions, url, picker } = props;
  return (
    <div className="flex flex-wrap gap-2">
      {suggestions.map((s) => (
        <Button
          key={s.value}
          size="sm"
          variant="secondary"
          onClick={() => picker.setImage(s.value)}
          disabled={picker.busy}
          aria-pressed={url === s.value}
        >
          {s.label}
        </Button>
      ))}
    </div>
  );
}

export function AltTextField(props: {
  id: string;
  alt: string;
  altInput: RefObject<HTMLInputElement | null>;
  onAltChange: (alt: string) => void;
}) {
  const { id, alt, altInput, onAltChange } = props;
  return (
    <div>
      <label htmlFor={`${id}-alt`} className="mb-1 block text-sm font-medium text-ink">
        Alt text
      </label>
      <Input
        ref={altInput}
        id={`${id}-alt`}
        value={alt}
        maxLength={LIMITS.altText}
        aria-describedby={`${id}-alt-help`}
        onChange={(e) => onAltChange(e.target.value)}
      />
      <p id={`${id}-alt-help`} className="mt-1 text-xs text-muted">
        What the image shows, for visitors who cannot see it. Leave empty only for a decorative image.
      </p>
    </div>
  );
}
