/**
 * Responsive images for the public pages. An uploaded raster image has an `upload` row with its
 * intrinsic size and the widths of its WebP variants; the variant of width `w` is the upload's URL
 * with the extension replaced by `-<w>w.webp`. Any other image URL (pasted, seeded, default) has
 * no metadata: it is drawn in a box of the field's known aspect, cropped to fill it.
 */

/** The extensions the server names uploaded images with (by what they hold), and each one's type. */
export const IMAGE_CONTENT_TYPES = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
} as const;
export type ImageExt = keyof typeof IMAGE_CONTENT_TYPES;

/** The content type of an uploaded image, from its URL's extension ('' for any other URL). */
export function imageTypeOfUrl(url: string): string {
  const ext = /\.([a-z]+)$/.exec(url)?.[1] ?? '';
  return Object.hasOwn(IMAGE_CONTENT_TYPES, ext) ? IMAGE_CONTENT_TYPES[ext as ImageExt] : '';
}

/** What the content snapshot knows about an uploaded image, by its URL. */
export interface ImageMeta {
  width: number;
  height: number;
  variantWidths: number[];
}

/** Everything an `<img>` needs besides its loading hints. */
export interface SiteImage {
  src: string;
  alt: string;
  width: number;
  height: number;
  srcset?: string;
}

export interface ImageBox {
  width: number;
  height: number;
}

/** The size each image field is made for (SPEC 2.15, 5): used when an image has no metadata. */
export const IMAGE_BOXES = {
  headerBackground: { width: 1920, height: 1000 },
  service: { width: 1000, height: 600 },
  insightFeatured: { width: 1200, height: 630 },
  about: { width: 800, height: 600 },
} as const satisfies Record<string, ImageBox>;

/** The URL of the WebP variant of `width` pixels: the extension of `url` replaced by `-<w>w.webp`. */
export function variantUrl(url: string, width: number): string {
  const cut = url.search(/[?#]/);
  const path = cut === -1 ? url : url.slice(0, cut);
  const rest = cut === -1 ? '' : url.slice(cut);
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  const stem = dot > slash ? path.slice(0, dot) : path;
  return `${stem}-${width}w.webp${rest}`;
}

/**
 * The `srcset` of an upload: its variants narrower than the original, then the original itself
 * (or the variant of the original's own width, which is WebP and smaller). Undefined when there
 * is nothing to choose from (no variants).
 */
export function imageSrcset(url: string, meta: ImageMeta): string | undefined {
  const widths = [...new Set(meta.variantWidths)].filter((w) => Number.isInteger(w) && w > 0 && w <= meta.width).sort((a, b) => a - b);
  if (widths.length === 0) return undefined;
  const entries = widths.map((w) => `${variantUrl(url, w)} ${w}w`);
  if (widths.at(-1) !== meta.width) entries.push(`${url} ${meta.width}w`);
  return entries.join(', ');
}

/**
 * One image field as the pages draw it: the upload's own size and variants when the snapshot
 * knows it, otherwise the field's box. Empty or missing alt text is a decorative image (`alt=""`).
 */
export function siteImage(
  src: string,
  alt: string | null | undefined,
  images: Readonly<Record<string, ImageMeta>> | undefined,
  box: ImageBox,
): SiteImage {
  const meta = images?.[src];
  const text = alt?.trim() ?? '';
  if (!meta || !(meta.width > 0) || !(meta.height > 0)) return { src, alt: text, width: box.width, height: box.height };
  const srcset = imageSrcset(src, meta);
  return { src, alt: text, width: meta.width, height: meta.height, ...(srcset ? { srcset } : {}) };
}

/** A logo drawn `height` pixels high at its own aspect (square when unknown), decorative beside the name. */
export function logoImage(src: string, images: Readonly<Record<string, ImageMeta>> | undefined, height = 40): SiteImage {
  const image = siteImage(src, '', images, { width: height, height });
  const width = Math.max(1, Math.round((height * image.width) / image.height));
  return { ...image, width, height };
}
