import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { IMAGE_CONTENT_TYPES, type ImageExt } from '#shared/images.ts';
import { IMAGE_MESSAGES } from '#shared/schemas/upload.ts';
import { HttpError } from '../http';
import { checkSvgTree } from './svg-tree';

/** Responsive WebP widths (SPEC 9: header backgrounds are suggested at 1920 wide). */
const VARIANT_WIDTHS = [480, 960, 1440, 1920] as const;

/** About 8000 × 6000: more pixels than any site image needs, far fewer than a decompression bomb. */
const MAX_INPUT_PIXELS = 50_000_000;

const startsWith = (bytes: Buffer, prefix: string | number[], at = 0) =>
  bytes.subarray(at, at + prefix.length).equals(Buffer.from(prefix as string, 'latin1'));

/** The XML prolog an SVG may start with: BOM, XML declaration, comments, white space. */
const SVG_START = /^\uFEFF?\s*(?:<\?xml\s[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE[^>]*>\s*(?:<!--[\s\S]*?-->\s*)*)?<svg[\s/>]/;

/**
 * The image type read from the bytes themselves (magic numbers), never from the file name or the
 * Content-Type the client sent: a PDF named `x.png` is not an image.
 */
export function sniffImage(bytes: Buffer): ImageExt | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return 'gif';
  if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return 'webp';
  const text = utf8(bytes);
  return text !== null && SVG_START.test(text) ? 'svg' : null;
}

/** The bytes as UTF-8 text, or null when they are not (binary, UTF-16…). */
function utf8(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Numeric character references and XML's five named entities, as the XML parser reads them. */
function decodeReferences(text: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
  return text
    .replace(/&#(?:x([0-9a-f]+)|([0-9]+));?/gi, (_, hex: string | undefined, dec: string | undefined) => {
      const cp = hex !== undefined ? parseInt(hex, 16) : Number(dec);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\uFFFD';
    })
    .replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => named[name]!);
}

/** Internal references only: `#id`, never another document, site or scheme. */
const isInternal = (value: string) => value.trim().startsWith('#');

const FORBIDDEN_ELEMENT = /<(?:[\w.-]+:)?(script|foreignObject|iframe|embed|object|handler|listener|audio|video)\b/i;

/**
 * Why an SVG is refused, or null when it is safe to store as is. An SVG can carry scripts, event
 * handlers, `javascript:` links, external loads and entity expansions; it is refused when it
 * contains any of them.
 *
 * Refusing beats rewriting: a sanitiser that rewrites markup must agree with every browser's
 * parser on every corner of XML, CSS and URL syntax, and its history is one bypass after another.
 * A refusal only has to notice the constructs; what is stored is exactly what was checked, and a
 * logo exported from a design tool has none of them. The checks run on the whole text (with
 * character references decoded), so a false alarm is possible on odd text content, a miss is not.
 * The SVG is also served with a sandboxing CSP (web/uploads.ts) in case a check falls short.
 */
export function svgProblem(text: string): string | null {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return 'a DOCTYPE or ENTITY declaration';
  if (/<\?(?!xml\s)/i.test(text)) return 'a processing instruction';
  const decoded = decodeReferences(text);
  const element = FORBIDDEN_ELEMENT.exec(decoded);
  if (element) return `a <${element[1]}> element`;
  if (/(?:^|[\s"'/:])on[a-z]+\s*=/i.test(decoded)) return 'an event handler attribute (on…)';
  // Browsers drop white space and control characters inside a URL scheme (`java\tscript:`).
  // eslint-disable-next-line no-control-regex
  const compact = decoded.replace(/[\u0000-\u0020]+/g, '');
  if (/(?<![a-z0-9])(?:javascript|vbscript|data):/i.test(compact)) return 'a javascript: or data: URL';
  if (decoded.includes('\\')) return 'a backslash (CSS escape)';
  if (/@import|image-set\s*\(|expression\s*\(/i.test(decoded)) return 'an external style reference';
  if (/attributeName\s*=\s*["']\s*(?:[\w.-]+:)?href/i.test(decoded)) return 'an animated link';
  for (const m of decoded.matchAll(/(?:^|[\s"'/:])(?:href|src)\s*=\s*(["']?)/gi)) {
    const quote = m[1];
    const rest = decoded.slice(m.index + m[0].length);
    const value = quote ? rest.slice(0, rest.indexOf(quote)) : rest;
    if (!quote || !isInternal(value)) return 'an external reference';
  }
  for (const m of decoded.matchAll(/url\s*\(\s*(["']?)([^)]*)\)/gi)) {
    if (!isInternal(m[2]!.replace(/["']/g, ''))) return 'an external url() reference';
  }
  if (/url\s*\(/i.test(decoded.replace(/url\s*\(\s*(["']?)[^)]*\)/gi, ''))) return 'an external url() reference';
  return null;
}

export interface ProcessedImage {
  ext: ImageExt;
  contentType: string;
  /** What is stored: re-encoded without metadata (raster), or the checked SVG tree serialized again. */
  bytes: Buffer;
  /** The first 32 hex digits of the SHA-256 of `bytes`: the stored name. */
  hash: string;
  width: number | null;
  height: number | null;
  /** WebP copies narrower than the original, widest last. */
  variants: { width: number; bytes: Buffer }[];
}

const unreadable = () => new HttpError(400, 'The image could not be read. It may be damaged or incomplete.');

function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

/**
 * Optimised Huffman tables make a JPEG a little smaller, but the encoder then holds the whole
 * image's coefficients, several bytes a pixel, ten times the memory without them at 50
 * megapixels. Up to this size (a 4000 × 3000 photo) the tables are optimised.
 */
const OPTIMISED_JPEG_MAX_PIXELS = 12_000_000;

/** The end of the queue of image work (`oneImageAtATime`). */
let queueTail: Promise<unknown> = Promise.resolve();

/**
 * Runs `work` once the image work queued before it has ended: the server reads and processes one
 * uploaded image at a time, whatever the number of uploads. A 50-megapixel image costs a lot of
 * memory while it is decoded and encoded, and several at once multiply it
 * ([benchmarks](docs/benchmarks.md), uploads); an upload that
 * waits here has not had its body read yet, so it waits in its connection, not in memory.
 */
export function oneImageAtATime<T>(work: () => Promise<T>): Promise<T> {
  const result = queueTail.then(work);
  queueTail = result.catch(() => undefined);
  return result;
}

/**
 * Checks and prepares an uploaded image. Raster images are decoded and encoded again in their own
 * format, turned upright from their EXIF orientation, with all metadata (EXIF, GPS, XMP, comments)
 * dropped, which also drops whatever else was hidden in the file (a GIF that is also a script).
 * GIFs and animated WebPs keep their frames and get no variants. Uploads call it through
 * `oneImageAtATime`.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  const ext = sniffImage(input);
  if (!ext) throw new HttpError(400, IMAGE_MESSAGES.invalidType);
  return ext === 'svg' ? processSvg(input) : processRaster(input, ext);
}

async function processRaster(input: Buffer, ext: Exclude<ImageExt, 'svg'>): Promise<ProcessedImage> {
  const animated = ext === 'gif' || ext === 'webp';
  const open = () => sharp(input, { animated, limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  let bytes: Buffer;
  let pages: number;
  try {
    const meta = await open().metadata();
    pages = meta.pages ?? 1;
    const upright = pages > 1 ? open() : open().autoOrient();
    const encoded =
      ext === 'jpg'
        ? upright.jpeg({ quality: 85, optimiseCoding: meta.width * meta.height <= OPTIMISED_JPEG_MAX_PIXELS })
        : ext === 'png'
          ? upright.png()
          : ext === 'gif'
            ? upright.gif()
            : upright.webp({ quality: 85 });
    bytes = await encoded.toBuffer();
  } catch {
    throw unreadable();
  }
  const meta = await sharp(bytes).metadata();
  const width = meta.width;
  const height = meta.pageHeight ?? meta.height;
  const widths = ext !== 'gif' && pages === 1 ? VARIANT_WIDTHS.filter((vw) => vw < width) : [];
  return {
    ext,
    contentType: IMAGE_CONTENT_TYPES[ext],
    bytes,
    hash: hashOf(bytes),
    width,
    height,
    variants: await variantsOf(bytes, widths),
  };
}

/**
 * The WebP variants of an upright image at `widths` (ascending). The image is decoded and reduced
 * once, to the widest variant's pixels, and every variant is made from those: decoding a
 * 50-megapixel image again for each width took four times as long and as much memory.
 */
async function variantsOf(bytes: Buffer, widths: number[]): Promise<ProcessedImage['variants']> {
  const widest = widths.at(-1);
  if (widest === undefined) return [];
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .resize({ width: widest })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const variants: ProcessedImage['variants'] = [];
  for (const w of widths) {
    const pixels = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    variants.push({ width: w, bytes: await (w === widest ? pixels : pixels.resize({ width: w })).webp({ quality: 80 }).toBuffer() });
  }
  return variants;
}

async function processSvg(input: Buffer): Promise<ProcessedImage> {
  const text = utf8(input)!;
  // The parsed tree against the allowlist (comments, metadata and CDATA gone), serialized; then the
  // text checks on the file as received and on what will be stored, which is what a browser reads
  // (`@im<!---->port` is two harmless texts in the one and `@import` in the other).
  const tree = checkSvgTree(text);
  const problem = svgProblem(text) ?? ('problem' in tree ? tree.problem : svgProblem(tree.svg));
  if (problem || 'problem' in tree)
    throw new HttpError(400, `This SVG was refused because it contains ${problem}. Export it without scripts or external references.`);
  const checked = Buffer.from(tree.svg, 'utf8');
  let width: number | null = null;
  let height: number | null = null;
  try {
    // Parsed once (librsvg) so a broken file is refused; its size is informative only.
    const meta = await sharp(checked, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    width = meta.width ?? null;
    height = meta.height ?? null;
  } catch {
    throw unreadable();
  }
  return { ext: 'svg', contentType: IMAGE_CONTENT_TYPES.svg, bytes: checked, hash: hashOf(checked), width, height, variants: [] };
}
