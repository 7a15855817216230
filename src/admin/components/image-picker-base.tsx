import { useId, useState } from 'react';
import { AltTextField, DropZone, ImagePreview, ImageSources, PickerLegend, Suggestions, UrlField } from './image-picker-parts';
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

/**
 * The markup every variant shares; `rules` says what the variant accepts and how it words errors.
 * Its parts are in image-picker-parts.tsx.
 */
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
  const picker = useImagePicker(rules, { url, onUrlChange, alt, onAltChange });
  /** The URL whose preview failed to load. */
  const [broken, setBroken] = useState('');

  const preview = picker.pending ?? url;
  const describedBy = [description && `${id}-desc`, formError && `${id}-form-error`, `${id}-error`].filter(Boolean).join(' ');

  return (
    <fieldset className="min-w-0 space-y-3 rounded-md border border-line p-3 sm:p-4" aria-describedby={describedBy}>
      <PickerLegend label={label} required={required} />
      {description && (
        <p id={`${id}-desc`} className="text-xs text-muted">
          {description}
        </p>
      )}

      {preview ? (
        <ImagePreview preview={preview} url={url} alt={alt} label={label} picker={picker} broken={broken} onBroken={setBroken} />
      ) : null}

      <DropZone replacing={Boolean(preview)} picker={picker}>
        <ImageSources label={label} rules={rules} picker={picker} />
      </DropZone>

      {picker.progress !== null && <ProgressBar value={picker.progress} label={`Uploading ${label.toLowerCase()}`} />}

      <UrlField id={id} picker={picker} />

      {suggestions && <Suggestions suggestions={suggestions} url={url} picker={picker} />}

      {formError && (
        <p id={`${id}-form-error`} className="text-sm text-danger">
          {formError}
        </p>
      )}

      <div id={`${id}-error`} role="alert" className="text-sm text-danger empty:absolute">
        {picker.error}
      </div>

      {onAltChange && <AltTextField id={id} alt={alt} altInput={picker.altInput} onAltChange={onAltChange} />}
    </fieldset>
  );
}
