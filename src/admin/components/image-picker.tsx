import { useEffect, useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Input } from '#components/ui/input.tsx';
import { useToast } from '#components/ui/toast.tsx';
import { ApiError, errorMessage } from '#lib/api-client.ts';
import { LIMITS } from '#shared/constants.ts';
import { IMAGE_MESSAGES } from '#shared/schemas/upload.ts';
import { NetworkError, deleteUploadedImage, isUploadedImage, uploadImage, type ImageUploadResult, type XhrAnswer } from '../api/upload';
import { ProgressBar } from './progress-bar';

/**
 * The image picker of every editor (SPEC 2.16): drop zone, 'Select Image', 'or paste a URL' with
 * 'Add', a progress bar, a preview with a remove button and the alt text. Three variants share this
 * one implementation and differ only in what they accept and how they word errors:
 * - `full`: the SPEC 2.16 picker (SPEC 5 "Image picker", SPEC 8);
 * - `simple`: the simple image uploader (SPEC 5/8: any image/* type, a URL that parses);
 * - `about`: the About image uploader (SPEC 5/8: PNG, JPG, JPEG only).
 */
export type ImagePickerVariant = 'full' | 'simple' | 'about';

interface Rules {
  /** MIME types accepted (`image/` accepts any image). */
  types: readonly string[];
  accept: string;
  /** A pasted URL must load as an image (true) or only parse (false). */
  loadUrl: boolean;
  text: {
    badType: string;
    tooLarge: string;
    noFile?: string;
    urlEmpty: string;
    urlFormat: string;
    urlNotImage: string;
    /** Inline error of an upload the server refused. */
    refused: (answer: XhrAnswer<ImageUploadResult>) => string;
    failedToast: { title: string; description?: string };
  };
}

const FULL_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/gif', 'image/webp', 'image/svg+xml'] as const;
const NETWORK = 'Network error occurred. Please check your internet connection and try again.';
const FULL_URL = {
  urlEmpty: 'Please enter an image URL',
  urlFormat: 'Invalid URL format. Please enter a valid image URL that starts with http:// or https://',
  urlNotImage: 'The URL does not point to a valid image',
};
/** SPEC 8: 'Server error: {message}' for a server fault, else the server's message or 'Failed to upload image'. */
const fullRefused = ({ status, body }: XhrAnswer<ImageUploadResult>) =>
  status >= 500 ? `Server error: ${errorMessage(new ApiError(status, '', ''))}` : body.message || 'Failed to upload image';

const RULES: Record<ImagePickerVariant, Rules> = {
  full: {
    types: FULL_TYPES,
    accept: FULL_TYPES.join(','),
    loadUrl: true,
    text: {
      badType: IMAGE_MESSAGES.invalidType,
      tooLarge: IMAGE_MESSAGES.tooLarge,
      ...FULL_URL,
      refused: fullRefused,
      failedToast: { title: 'Upload failed' },
    },
  },
  simple: {
    types: ['image/'],
    accept: 'image/*',
    loadUrl: false,
    text: {
      badType: 'Invalid File Type',
      tooLarge: 'File Too Large',
      urlEmpty: 'URL Required',
      urlFormat: 'Invalid URL',
      urlNotImage: 'Invalid URL',
      refused: ({ status }) => `Upload failed: ${status}`,
      failedToast: { title: 'Upload Failed', description: 'There was an error uploading your image. Please try again.' },
    },
  },
  about: {
    types: ['image/png', 'image/jpeg', 'image/jpg'],
    accept: 'image/png,image/jpeg,.png,.jpg,.jpeg',
    loadUrl: true,
    text: {
      badType: 'Invalid file type',
      tooLarge: 'File too large: Image size should be less than 5MB.',
      noFile: 'No file selected',
      ...FULL_URL,
      refused: (answer) => answer.body.message || 'Upload failed',
      failedToast: { title: 'Upload failed' },
    },
  },
};

/** SPEC 9: an error clears after 5 s; the alt text is focused 100 ms after an image arrives. */
const ERROR_MS = 5000;
const ALT_FOCUS_MS = 100;
const HTTP_IMAGE_URL = /^https?:\/\/[^\s/?#]+\/\S*$/i;

/** Resolves true when `url` loads as an image in this browser. */
function loadsAsImage(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const img = new Image();
    const timer = setTimeout(() => resolve(false), 15_000);
    img.onload = () => {
      clearTimeout(timer);
      resolve(true);
    };
    img.onerror = () => {
      clearTimeout(timer);
      resolve(false);
    };
    img.src = url;
  });
}

function parses(url: string): boolean {
  try {
    return Boolean(new URL(url));
  } catch {
    return false;
  }
}

export interface ImagePickerProps {
  label?: string;
  required?: boolean;
  description?: string;
  url: string;
  onUrlChange: (url: string) => void;
  /** With a change handler, the alt text field is shown (logos have none: their alt is the company name). */
  alt?: string;
  onAltChange?: (alt: string) => void;
  variant?: ImagePickerVariant;
  /** The form's validation message for the URL. */
  error?: string;
  /** Images offered as one-click choices (SPEC 2.15 suggested header backgrounds). */
  suggestions?: readonly { label: string; value: string }[];
}

export function ImagePicker({
  label = 'Image',
  required,
  description,
  url,
  onUrlChange,
  alt = '',
  onAltChange,
  variant = 'full',
  error: formError,
  suggestions,
}: ImagePickerProps) {
  const rules = RULES[variant];
  const toast = useToast();
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const selectButton = useRef<HTMLButtonElement>(null);
  const altInput = useRef<HTMLInputElement>(null);
  const [pasted, setPasted] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  /** A local preview of the file being uploaded; dropped (the previous image returns) on failure. */
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState('');
  /** The URL whose preview failed to load. */
  const [broken, setBroken] = useState('');
  const [dragging, setDragging] = useState(false);
  const added = useRef(false);
  const busy = progress !== null;

  useEffect(() => {
    if (!error) return;
    const timer = setTimeout(() => setError(''), ERROR_MS);
    return () => clearTimeout(timer);
  }, [error]);

  // Once an image has been added and it has no alt text yet, the alt field takes focus.
  useEffect(() => {
    if (!url || !added.current) return;
    added.current = false;
    if (!onAltChange || alt) return;
    const timer = setTimeout(() => altInput.current?.focus(), ALT_FOCUS_MS);
    return () => clearTimeout(timer);
    // The alt text is read when the URL changes, not followed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);

  useEffect(() => () => void (pending && URL.revokeObjectURL(pending)), [pending]);

  const setImage = (next: string) => {
    added.current = true;
    onUrlChange(next);
  };

  /** An upload that failed: the message here and in a toast; `finally` below drops the local preview. */
  const failUpload = (message: string) => {
    setError(message);
    toast({ ...rules.text.failedToast, description: rules.text.failedToast.description ?? message, variant: 'destructive' });
  };

  const accepts = (file: File) => rules.types.some((t) => (t.endsWith('/') ? file.type.startsWith(t) : file.type === t));

  async function upload(files: FileList | File[] | null) {
    const list = Array.from(files ?? []);
    if (list.length === 0) {
      if (rules.text.noFile) setError(rules.text.noFile);
      return;
    }
    const file = list[0]!;
    if (!accepts(file)) return setError(rules.text.badType);
    if (file.size > LIMITS.imageMaxBytes) return setError(rules.text.tooLarge);
    setError('');
    setProgress(0);
    setPending(URL.createObjectURL(file));
    try {
      const answer = await uploadImage(file, setProgress);
      if (answer.status < 200 || answer.status >= 300 || !answer.body.success || !answer.body.url) {
        return failUpload(rules.text.refused(answer));
      }
      setImage(answer.body.url);
      toast({ title: IMAGE_MESSAGES.uploaded });
    } catch (err) {
      failUpload(err instanceof NetworkError ? NETWORK : 'Failed to upload image');
    } finally {
      setProgress(null);
      setPending(null);
    }
  }

  async function addUrl() {
    const value = pasted.trim();
    if (!value) return setError(rules.text.urlEmpty);
    if (rules.loadUrl ? !HTTP_IMAGE_URL.test(value) : !parses(value)) return setError(rules.text.urlFormat);
    setError('');
    if (rules.loadUrl) {
      // SPEC 4: adding by URL shows 50% while the image is tried.
      setProgress(50);
      const ok = await loadsAsImage(value);
      setProgress(null);
      if (!ok) return setError(rules.text.urlNotImage);
    }
    setPasted('');
    setImage(value);
  }

  async function remove() {
    const previous = url;
    onUrlChange('');
    onAltChange?.('');
    // The remove button is gone: keep the keyboard user in the picker.
    selectButton.current?.focus();
    if (!isUploadedImage(previous)) return;
    // SPEC 4: the image is cleared here even when the server keeps the file.
    try {
      await deleteUploadedImage(previous);
    } catch {
      toast({ title: 'Error removing image', description: 'Failed to delete the image from server', variant: 'destructive' });
    }
  }

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
            className="h-28 w-fit max-w-full rounded-md border border-line bg-surface object-contain sm:max-w-xs"
            onError={() => setBroken(preview)}
          />
          <div className="min-w-0 flex-1 space-y-2">
            <p className="text-xs break-all text-muted">{pending ? 'Uploading…' : url}</p>
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
        <Button ref={selectButton} size="sm" className="mt-2" onClick={() => fileInput.current?.click()} disabled={busy}>
          Select Image
        </Button>
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

      {busy && <ProgressBar value={progress} label={`Uploading ${label.toLowerCase()}`} />}

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
