/**
 * The first check of an uploaded SVG, before the text checks of `svgProblem` (image-files.ts): the
 * document parsed by a namespace-aware XML parser (@xmldom/xmldom), every element and attribute
 * held against an allowlist by namespace URI and local name. A prefix is only a name: an element
 * is what its namespace says it is, so `<é:script xmlns:é="http://www.w3.org/1999/xhtml">` is an
 * XHTML script whatever the text checks made of its prefix. What is stored is the checked tree,
 * serialized again, so the bytes served are the bytes that were checked.
 *
 * Kept: static SVG (shapes, text, paint servers, clipping, masking, filters, `<style>`), with
 * internal references only. Refused: anything else in the SVG namespace (script, foreignObject,
 * image, animation, links), any element of another namespace, and attributes that are not SVG
 * presentation, geometry or `data-`/`aria-` ones. Dropped: design tools' own metadata (Inkscape,
 * Sodipodi, Illustrator, Sketch, RDF and Dublin Core elements and attributes) and comments.
 */
import { DOMParser, XMLSerializer, type Attr, type Element, type Node } from '@xmldom/xmldom';

const SVG = 'http://www.w3.org/2000/svg';
const XLINK = 'http://www.w3.org/1999/xlink';
const XML = 'http://www.w3.org/XML/1998/namespace';
const XMLNS = 'http://www.w3.org/2000/xmlns/';

/** Design tools' bookkeeping: inert, and dropped from what is stored. */
const EDITOR_NAMESPACES = new Set([
  'http://www.inkscape.org/namespaces/inkscape',
  'http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  'http://creativecommons.org/ns#',
  'http://web.resource.org/cc/',
  'http://purl.org/dc/elements/1.1/',
  'http://ns.adobe.com/AdobeIllustrator/10.0/',
  'http://ns.adobe.com/AdobeSVGViewerExtensions/3.0/',
  'http://ns.adobe.com/Extensibility/1.0/',
  'http://ns.adobe.com/Graphs/1.0/',
  'http://ns.adobe.com/SaveForWeb/1.0/',
  'http://ns.adobe.com/Variables/1.0/',
  'http://ns.adobe.com/ImageReplacement/1.0/',
  'http://ns.adobe.com/Flows/1.0/',
  'http://ns.adobe.com/xap/1.0/',
  'http://www.bohemiancoding.com/sketch/ns',
  'http://www.serif.com/',
]);

const SVG_ELEMENTS = new Set(
  (
    'svg g defs symbol use title desc metadata switch style path rect circle ellipse line polyline polygon text tspan textPath ' +
    'linearGradient radialGradient stop pattern clipPath mask marker filter feBlend feColorMatrix feComponentTransfer ' +
    'feComposite feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB ' +
    'feFuncG feFuncR feGaussianBlur feMerge feMergeNode feMorphology feOffset fePointLight feSpecularLighting feSpotLight ' +
    'feTile feTurbulence'
  ).split(' '),
);

/** Attributes without a namespace: geometry, structure, filters and presentation. */
const SVG_ATTRIBUTES = new Set(
  (
    'id class style lang tabindex role focusable viewBox preserveAspectRatio version baseProfile x y x1 y1 x2 y2 cx cy r rx ry ' +
    'fx fy fr width height d points pathLength transform gradientTransform gradientUnits patternTransform patternUnits ' +
    'patternContentUnits spreadMethod offset clipPathUnits maskUnits maskContentUnits filterUnits primitiveUnits markerWidth ' +
    'markerHeight markerUnits refX refY orient dx dy rotate textLength lengthAdjust startOffset method spacing side href in ' +
    'in2 result stdDeviation edgeMode mode operator k1 k2 k3 k4 values type tableValues slope intercept amplitude exponent ' +
    'scale xChannelSelector yChannelSelector baseFrequency numOctaves seed stitchTiles radius kernelMatrix order divisor bias ' +
    'targetX targetY preserveAlpha surfaceScale diffuseConstant specularConstant specularExponent kernelUnitLength azimuth ' +
    'elevation z pointsAtX pointsAtY pointsAtZ limitingConeAngle requiredFeatures requiredExtensions systemLanguage ' +
    'enable-background media ' +
    // Presentation attributes.
    'alignment-baseline baseline-shift clip clip-path clip-rule color color-interpolation color-interpolation-filters ' +
    'color-profile color-rendering direction display dominant-baseline fill fill-opacity fill-rule filter flood-color ' +
    'flood-opacity font font-family font-size font-size-adjust font-stretch font-style font-variant font-weight ' +
    'glyph-orientation-horizontal glyph-orientation-vertical image-rendering isolation kerning letter-spacing lighting-color ' +
    'marker marker-start marker-mid marker-end mask mask-type mix-blend-mode opacity overflow paint-order pointer-events ' +
    'shape-rendering solid-color solid-opacity stop-color stop-opacity stroke stroke-dasharray stroke-dashoffset ' +
    'stroke-linecap stroke-linejoin stroke-miterlimit stroke-opacity stroke-width text-anchor text-decoration text-rendering ' +
    'transform-origin unicode-bidi vector-effect visibility white-space word-spacing writing-mode'
  ).split(' '),
);

const isInternal = (value: string) => value.trim().startsWith('#');

export type SvgTreeResult = { problem: string } | { svg: string };

/**
 * Bounds on what a logo may cost a browser or this server. Elements are counted in the text before
 * anything is parsed (a parsed tree costs a few hundred bytes an element, so a small file of
 * empty elements holds hundreds of times its size); depth is bounded so nothing walks the tree by recursion into a stack
 * overflow; `<use>` is expanded by counting, so a chain of uses that copies a copy of a copy
 * ("billion laughs" without entities: Chromium never finishes drawing it) is refused.
 */
const SVG_LIMITS = { elements: 20_000, depth: 200, drawn: 10_000 } as const;

/** The checked SVG to store, or why it is refused (completing "This SVG was refused because it contains …"). */
export function checkSvgTree(text: string): SvgTreeResult {
  if ((text.match(/<[A-Za-z_\u00C0-\uFFFF]/g)?.length ?? 0) > SVG_LIMITS.elements)
    return { problem: `more than ${SVG_LIMITS.elements.toLocaleString('en-US')} elements` };
  // The parser's cost grows with the nesting (10,000 levels took seconds): bounded before it runs.
  if (tagDepth(text) > SVG_LIMITS.depth) return { problem: `elements nested more than ${SVG_LIMITS.depth} deep` };
  const errors: string[] = [];
  let doc: ReturnType<DOMParser['parseFromString']>;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') errors.push(message);
      },
    }).parseFromString(text, 'image/svg+xml');
  } catch {
    return { problem: 'markup that is not well-formed XML' };
  }
  const root = doc.documentElement;
  if (errors.length > 0 || !root) return { problem: 'markup that is not well-formed XML' };
  if (root.namespaceURI !== SVG || root.localName !== 'svg')
    return { problem: `a <${root.nodeName}> root element outside the SVG namespace` };
  const problem = checkElements(root) ?? useExpansionProblem(root);
  if (problem) return { problem };
  for (let n = doc.firstChild; n;) {
    const next = n.nextSibling;
    if (n.nodeType === n.COMMENT_NODE) doc.removeChild(n);
    n = next;
  }
  return { svg: new XMLSerializer().serializeToString(doc) };
}

/**
 * How deep the text's tags nest, read without parsing: each start tag one level down, each end tag
 * one up, a self-closing tag neither. A bound only (the tree is checked again once parsed): a `<`
 * in a comment or CDATA can only make it larger.
 */
function tagDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const m of text.matchAll(/<(\/?)[A-Za-z_\u00C0-\uFFFF][^>]*?(\/?)>/g)) {
    if (m[1]) depth--;
    else if (!m[2]) deepest = Math.max(deepest, ++depth);
  }
  return deepest;
}

/**
 * Every element and attribute against the allowlist, iteratively (a stack, not recursion). Design
 * tools' elements, comments and processing instructions are dropped; a CDATA section becomes plain
 * text, so what is serialized, and then checked as text, reads as a browser reads it
 * (`<![CDATA[@im]]>port` is `@import`).
 */
function checkElements(root: Element): string | null {
  const stack: { el: Element; depth: number }[] = [{ el: root, depth: 1 }];
  while (stack.length > 0) {
    const { el, depth } = stack.pop()!;
    if (depth > SVG_LIMITS.depth) return `elements nested more than ${SVG_LIMITS.depth} deep`;
    for (const attr of Array.from(el.attributes) as Attr[]) {
      const problem = checkAttribute(el, attr);
      if (problem) return problem;
    }
    for (let n: Node | null = el.firstChild; n;) {
      const next = n.nextSibling;
      if (n.nodeType === n.ELEMENT_NODE) {
        const child = n as Element;
        if (child.namespaceURI && EDITOR_NAMESPACES.has(child.namespaceURI)) el.removeChild(child);
        else if (child.namespaceURI !== SVG || !SVG_ELEMENTS.has(child.localName ?? '')) return `a <${child.nodeName}> element`;
        else stack.push({ el: child, depth: depth + 1 });
      } else if (n.nodeType === n.COMMENT_NODE || n.nodeType === n.PROCESSING_INSTRUCTION_NODE) {
        el.removeChild(n);
      } else if (n.nodeType === n.CDATA_SECTION_NODE) {
        el.replaceChild(el.ownerDocument!.createTextNode((n as unknown as { data: string }).data), n);
      }
      n = next;
    }
    // Text split by a dropped comment is one text again, as the serialized file will read.
    el.normalize();
  }
  return null;
}

const internalTarget = (use: Element): string | null => {
  const href = use.getAttribute('href') ?? use.getAttributeNS(XLINK, 'href');
  return href && isInternal(href) ? href.trim().slice(1) : null;
};

/**
 * How many elements the document draws once every `<use>` is replaced by a copy of what it
 * references (uses of uses multiply), counted without copying anything, and refused above
 * SVG_LIMITS.drawn; a `<use>` that references itself or an ancestor is refused too.
 */
function useExpansionProblem(root: Element): string | null {
  const byId = new Map<string, Element>();
  const all: Element[] = [];
  for (const stack = [root]; stack.length > 0;) {
    const el = stack.pop()!;
    all.push(el);
    const id = el.getAttribute('id');
    if (id && !byId.has(id)) byId.set(id, el);
    for (let n: Node | null = el.firstChild; n; n = n.nextSibling) if (n.nodeType === n.ELEMENT_NODE) stack.push(n as Element);
  }
  if (!all.some((el) => el.localName === 'use')) return null;
  const cap = SVG_LIMITS.drawn + 1;
  const drawn = new Map<Element, number>();
  const visiting = new Set<Element>();
  const children = (el: Element): Element[] => {
    const out: Element[] = [];
    for (let n: Node | null = el.firstChild; n; n = n.nextSibling) if (n.nodeType === n.ELEMENT_NODE) out.push(n as Element);
    if (el.localName === 'use') {
      const target = byId.get(internalTarget(el) ?? '');
      if (target) out.push(target);
    }
    return out;
  };
  // Depth-first with an explicit stack: an element's count is known once all it draws are counted.
  const stack: { el: Element; expanded: boolean }[] = [{ el: root, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (drawn.has(top.el)) {
      stack.pop();
      continue;
    }
    if (!top.expanded) {
      top.expanded = true;
      visiting.add(top.el);
      for (const child of children(top.el)) {
        if (visiting.has(child)) return 'a <use> that draws itself';
        if (!drawn.has(child)) stack.push({ el: child, expanded: false });
      }
      continue;
    }
    stack.pop();
    visiting.delete(top.el);
    let total = 1;
    for (const child of children(top.el)) total = Math.min(cap, total + (drawn.get(child) ?? 0));
    drawn.set(top.el, total);
  }
  return (drawn.get(root) ?? 0) > SVG_LIMITS.drawn
    ? `<use> references that draw more than ${SVG_LIMITS.drawn.toLocaleString('en-US')} elements`
    : null;
}

function checkAttribute(el: Element, attr: Attr): string | null {
  const ns = attr.namespaceURI;
  const name = attr.localName ?? attr.name;
  if (ns === XMLNS || (ns === null && attr.name === 'xmlns')) return null;
  if (ns && EDITOR_NAMESPACES.has(ns)) {
    el.removeAttributeNode(attr);
    return null;
  }
  if (ns === XML && (name === 'space' || name === 'lang')) return null;
  if (ns === XLINK && name === 'href') return isInternal(attr.value) ? null : 'an external reference';
  if (ns === null || ns === '') {
    if (name === 'href') return isInternal(attr.value) ? null : 'an external reference';
    if (/^on/i.test(name)) return 'an event handler attribute (on…)';
    if (SVG_ATTRIBUTES.has(name) || /^(?:data|aria)-[a-z0-9_.-]+$/i.test(name)) return null;
  }
  return `an attribute ${attr.name} that an image does not need`;
}
