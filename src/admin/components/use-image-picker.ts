import { useEffect, useRef, useState } from 'react';
import { useToast } from '#components/ui/toast.tsx';
import { LIMITS } from '#shared/constants.ts';
import { IMAGE_MESSAGES } from '#shared/schemas/upload.ts';
import { NetworkError, deleteUploadedImage, isUploadedImage, uploadImage, type ImageUploadResult, type XhrAnswer } from '../api/upload';

/** What one variant of the image picker accepts and how it words its errors (image-picker.tsx). */
export interface PickerRules {
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

/** The value a picker edits: the image URL and, when the field has one, its alt text. */
export interface PickerValue {
  url: string;
  onUrlChange: (url: string) => void;
  alt: string;
  onAltChange?: (alt: string) => void;
}

const NETWORK = 'Network error occurred. Please check your internet connection and try again.';
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

/**
 * The state and actions every variant of the image picker shares: upload with progress, add by
 * URL, remove, the error that clears itself, and the alt field's focus once an image arrives.
 */
export function useImagePicker(rules: PickerRules, { url, onUrlChange, alt, onAltChange }: PickerValue) {
  const toast = useToast();
  const selectButton = useRef<HTMLButtonElement>(null);
  const altInput = useRef<HTMLInputElement>(null);
  const [pasted, setPasted] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  /** A local preview of the file being uploaded; dropped (the previous image returns) on failure. */
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState('');
  const added = useRef(false);

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

  return {
    selectButton,
    altInput,
    pasted,
    setPasted,
    progress,
    busy: progress !== null,
    pending,
    error,
    setImage,
    upload,
    addUrl,
    remove,
  };
}
