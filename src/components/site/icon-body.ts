/**
 * The drawing inside one of Lucide's SVG strings (`lucide-static` exports each icon as a whole
 * `<svg>` document): its child elements, on one line, for an `<svg>` of our own that carries the
 * size, colour and `aria-hidden`.
 */
export function iconBody(svg: string): string {
  const inner = /<svg\b[^>]*>([\s\S]*)<\/svg>/.exec(svg)?.[1] ?? '';
  return inner.replace(/\s*\n\s*/g, '').trim();
}
