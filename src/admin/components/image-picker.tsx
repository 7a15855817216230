import { ApiError, errorMessage } from '#lib/api-client.ts';
import { IMAGE_MESSAGES } from '#shared/schemas/upload.ts';
import type { ImageUploadResult, XhrAnswer } from '../api/upload';
import { ImagePickerBase, type ImagePickerProps } from './image-picker-base';
import type { PickerRules } from './use-image-picker';

/*
 * The image pickers of the editors (SPEC 2.16): drop zone, 'Select Image', 'or paste a URL' with
 * 'Add', a progress bar, a preview with a remove button and the alt text. One component per
 * variant, each with what it accepts and how it words errors; the markup and the upload are shared
 * (image-picker-base.tsx, use-image-picker.ts).
 */

const FULL_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/gif', 'image/webp', 'image/svg+xml'] as const;
const CHECKED_URL = {
  urlEmpty: 'Please enter an image URL',
  urlFormat: 'Invalid URL format. Please enter a valid image URL that starts with http:// or https://',
  urlNotImage: 'The URL does not point to a valid image',
};

/** SPEC 8: 'Server error: {message}' for a server fault, else the server's message or 'Failed to upload image'. */
const fullRefused = ({ status, body }: XhrAnswer<ImageUploadResult>) =>
  status >= 500 ? `Server error: ${errorMessage(new ApiError(status, '', ''))}` : body.message || 'Failed to upload image';

const FULL: PickerRules = {
  types: FULL_TYPES,
  accept: FULL_TYPES.join(','),
  loadUrl: true,
  text: {
    badType: IMAGE_MESSAGES.invalidType,
    tooLarge: IMAGE_MESSAGES.tooLarge,
    ...CHECKED_URL,
    refused: fullRefused,
    failedToast: { title: 'Upload failed' },
  },
};

const SIMPLE: PickerRules = {
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
};

const ABOUT: PickerRules = {
  types: ['image/png', 'image/jpeg', 'image/jpg'],
  accept: 'image/png,image/jpeg,.png,.jpg,.jpeg',
  loadUrl: true,
  text: {
    badType: 'Invalid file type',
    tooLarge: 'File too large: Image size should be less than 5MB.',
    noFile: 'No file selected',
    ...CHECKED_URL,
    refused: (answer) => answer.body.message || 'Upload failed',
    failedToast: { title: 'Upload failed' },
  },
};

/** The SPEC 2.16 picker (SPEC 5 "Image picker", SPEC 8): the image types the server takes, a pasted URL must load. */
function FullImagePicker(props: ImagePickerProps) {
  return <ImagePickerBase rules={FULL} {...props} />;
}

/** The simple image uploader (SPEC 5/8): any image/* type, a pasted URL need only parse. */
export function SimpleImagePicker(props: ImagePickerProps) {
  return <ImagePickerBase rules={SIMPLE} {...props} />;
}

/** The About image uploader (SPEC 5/8): PNG, JPG, JPEG only. */
function AboutImagePicker(props: ImagePickerProps) {
  return <ImagePickerBase rules={ABOUT} {...props} />;
}

const PICKERS = { full: FullImagePicker, simple: SimpleImagePicker, about: AboutImagePicker };
export type ImagePickerVariant = keyof typeof PICKERS;

/** The picker of a variant named by data (schema-form.tsx's image fields). */
export function ImagePicker({ variant = 'full', ...props }: ImagePickerProps & { variant?: ImagePickerVariant }) {
  const Picker = PICKERS[variant];
  return <Picker {...props} />;
}
