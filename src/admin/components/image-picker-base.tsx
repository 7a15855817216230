import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Input } from '#components/ui/input.tsx';
import { LIMITS } from '#shared/constants.ts';
import { imageTypeOfUrl } from '#shared/images.ts';
import { uploadNameQuery } from '../api/images';
import { ProgressBar } from './progress-bar';
import { useImagePicker, type PickerRules } from './use-image-picker';

export interface ImagePickerProps {
  label?: string;
  required?: boolean;
  description?: string;
  url: string;
  onUrlChange: (url: string) => void;
  /** With a change handler, the alt text field is shown (logos have none: their alt is the company name). */
  alt?: string;
  onAltChange?: (alt: string) => void;
  /** The form's validation message for the URL. */
  error?: string;
  /** Images offered as one-click choices (SPEC 2.15 suggested header backgrounds). */
  suggestions?: readonly { label: string; value: string }[];
}

// Loaded on the first Choose from library, then kept mounted (its focus return and its query).
const ImageLibraryDialog = lazy(() => import('./image-library-dialog').then((m) => ({ default: m.ImageLibraryDialog })));

/** The markup every variant shares; `rules` says what the variant accepts and how it words errors. */
export function ImagePickerBase({
  rules,
  label = 'Image',
  required,
  description,
  url,
  onUrlChange,
  alt = '',
  onAltChange,
  error: formError,
  suggestions,
}: ImagePickerProps & { rules: PickerRules }) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const { selectButton, altInput, pasted, setPasted, progress, busy, pending, error, setImage, upload, addUrl, remove } = useImagePicker(
    rules,
    {
      url,
      onUrlChange,
      alt,
      onAltChange,
    },
  );
  /** The URL whose preview failed to load. */
  const [broken, setBroken] = useState('');
  const [dragging, setDragging] = useState(false);
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [libraryMounted, setLibraryMounted] = useState(false);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!busy) void upload(e.dataTransfer.files);
  };
  const onUrlKey = (e: KeyboardEvent) => {
    // Enter adds the URL; it must not submit the surrounding form.
    if (e.key === 'Enter') {
      e.preventDefault();
      void addUrl();
    }
  };

  const preview = pending ?? url;
  const uploadName = useQuery({ ...uploadNameQuery(url), enabled: Boolean(url) && !pending });
  const describedBy = [description && `${id}-desc`, formError && `${id}-form-error`, `${id}-error`].filter(Boolean).join(' ');

  return (
    <fieldset className="min-w-0 space-y-3 rounded-md border border-line p-3 sm:p-4" aria-describedby={describedBy}>
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
      {description && (
        <p id={`${id}-desc`} className="text-xs text-muted">
          {description}
        </p>
      )}

      {preview ? (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <img
            src={preview}
            alt={alt ? `Preview: ${alt}` : `Preview of the ${label.toLowerCase()}`}
            className="bg-checkerboard h-28 w-fit max-w-full rounded-md border border-line object-contain sm:max-w-xs"
            onError={() => setBroken(preview)}
          />
          <div className="min-w-0 flex-1 space-y-2">
            <p className="text-xs break-all text-muted">{pending ? 'Uploading…' : (uploadName.data ?? url)}</p>
            {!pending && (
              <Button size="sm" variant="secondary" onClick={() => void remove()} disabled={busy}>
                Remove image
              </Button>
            )}
            {broken === url && !pending && (
              <p className="text-sm text-danger">Image failed to load. The URL may be invalid or inaccessible.</p>
            )}
          </div>
        </div>
      ) : null}

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
            void upload(e.clipboardData.files);
          }
        }}
        className={`rounded-md border-2 border-dashed p-3 text-center text-sm ${dragging ? 'border-brand-700 bg-brand-50' : 'border-slate-400'}`}
      >
        <p className="text-muted">{preview ? 'Drop another image here to replace it, or' : 'Drag and drop an image here, or'}</p>
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
      </div>

      {progress !== null && <ProgressBar value={progress} label={`Uploading ${label.toLowerCase()}`} />}

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

      {suggestions && (
        <div className="flex flex-wrap gap-2">
          {suggestions.map((s) => (
            <Button
              key={s.value}
              size="sm"
              variant="secondary"
              onClick={() => setImage(s.value)}
              disabled={busy}
              aria-pressed={url === s.value}
            >
              {s.label}
            </Button>
          ))}
        </div>
      )}

      {formError && (
        <p id={`${id}-form-error`} className="text-sm text-danger">
          {formError}
        </p>
      )}

      <div id={`${id}-error`} role="alert" className="text-sm text-danger empty:absolute">
        {error}
      </div>

      {onAltChange && (
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
      )}
    </fieldset>
  );
}
