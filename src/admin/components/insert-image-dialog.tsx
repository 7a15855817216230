import { useId, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Dialog } from '#components/ui/dialog.tsx';
import { Input } from '#components/ui/input.tsx';
import { LIMITS } from '#shared/constants.ts';
import { isOwnImage } from '#shared/markdown.ts';
import { ImagePicker } from './image-picker';

const MESSAGES = {
  noImage: 'Choose an image from the library, or upload one',
  foreign: 'An article shows only images of this site: upload the image instead of linking to it',
  noAlt: 'Describe the image, or mark it as decorative',
};

/**
 * The Markdown editor's Image: an image from the media library or a new upload, and its
 * alternative text (required, unless the owner marks the image as decorative, which writes
 * `alt=""`). `onInsert` gets the address and the text; the editor writes the Markdown at the caret.
 */
export function InsertImageDialog({
  open,
  onOpenChange,
  onInsert,
  returnFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onInsert: (url: string, alt: string) => void;
  /** Where focus goes on closing (the text, once an image is in it), when not back to Image. */
  returnFocus?: () => HTMLElement | null;
}) {
  const id = useId();
  const [url, setUrl] = useState('');
  const [alt, setAlt] = useState('');
  const [decorative, setDecorative] = useState(false);
  const [errors, setErrors] = useState<{ url?: string; alt?: string }>({});

  const close = (next: boolean) => {
    if (!next) {
      setUrl('');
      setAlt('');
      setDecorative(false);
      setErrors({});
    }
    onOpenChange(next);
  };
  const insert = () => {
    const found = {
      url: !url ? MESSAGES.noImage : !isOwnImage(url) ? MESSAGES.foreign : undefined,
      alt: !decorative && !alt.trim() ? MESSAGES.noAlt : undefined,
    };
    setErrors(found);
    if (found.url) {
      document.getElementById(`${id}-picker`)?.querySelector('button')?.focus();
      return;
    }
    if (found.alt) {
      document.getElementById(`${id}-alt`)?.focus();
      return;
    }
    onInsert(url, decorative ? '' : alt.trim());
    close(false);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      returnFocus={returnFocus}
      title="Insert an image"
      description="The image goes where the cursor was in the text."
    >
      <div className="space-y-4">
        <div id={`${id}-picker`}>
          <ImagePicker label="Image" required url={url} onUrlChange={setUrl} error={errors.url} />
        </div>
        <div>
          <label htmlFor={`${id}-alt`} className="mb-1 block text-sm font-medium text-ink">
            Alternative text{' '}
            <span className="text-danger" aria-hidden="true">
              *
            </span>
          </label>
          <Input
            id={`${id}-alt`}
            value={alt}
            maxLength={LIMITS.altText}
            disabled={decorative}
            aria-required={!decorative}
            aria-invalid={errors.alt ? true : undefined}
            aria-describedby={[`${id}-alt-help`, errors.alt && `${id}-alt-error`].filter(Boolean).join(' ')}
            onChange={(e) => setAlt(e.target.value)}
          />
          <p id={`${id}-alt-help`} className="mt-1 text-xs text-muted">
            What the image shows, for readers who cannot see it.
          </p>
          {errors.alt && (
            <p id={`${id}-alt-error`} className="mt-1 text-sm text-danger">
              {errors.alt}
            </p>
          )}
        </div>
        <div className="flex items-center gap-2">
          <input
            id={`${id}-decorative`}
            type="checkbox"
            className="h-5 w-5 accent-brand-700"
            checked={decorative}
            onChange={(e) => {
              setDecorative(e.target.checked);
              setErrors((was) => ({ ...was, alt: undefined }));
            }}
          />
          <label htmlFor={`${id}-decorative`} className="text-sm text-ink">
            Decorative: it adds nothing to the words (no alternative text)
          </label>
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button onClick={insert}>Insert image</Button>
        </div>
      </div>
    </Dialog>
  );
}
