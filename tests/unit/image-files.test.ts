import { describe, expect, it } from 'vitest';
import { processImage, sniffImage, svgProblem } from '#server/services/image-files.ts';

/** An SVG as Inkscape saves it: its own namespaces, metadata, gradients, internal references. */
const INKSCAPE = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->
<svg width="210mm" height="297mm" viewBox="0 0 210 297" version="1.1" id="svg5"
   inkscape:version="1.2" sodipodi:docname="logo.svg"
   xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
   xmlns:xlink="http://www.w3.org/1999/xlink" xmlns="http://www.w3.org/2000/svg"
   xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <sodipodi:namedview id="namedview7" pagecolor="#ffffff" inkscape:zoom="0.7" />
  <metadata id="metadata1"><rdf:RDF><dc:format>image/svg+xml</dc:format></rdf:RDF></metadata>
  <defs id="defs2"><linearGradient id="a"><stop offset="0" style="stop-color:#0a7;stop-opacity:1" /></linearGradient>
  <clipPath id="c"><rect width="10" height="10"/></clipPath></defs>
  <g clip-path="url(#c)" fill="url('#a')" inkscape:label="Layer 1"><use xlink:href="#a" href="#a" /><text xml:space="preserve">Donation = one &amp; only</text></g>
</svg>`;

describe('sniffImage', () => {
  it.each([
    ['jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])],
    ['png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])],
    ['gif', Buffer.from('GIF89a\x01\x00', 'latin1')],
    ['webp', Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1')],
    ['svg', Buffer.from('\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg"/>')],
  ])('reads %s from the bytes', (ext, bytes) => {
    expect(sniffImage(bytes)).toBe(ext);
  });

  it.each([
    ['a PDF', Buffer.from('%PDF-1.7\n')],
    ['HTML', Buffer.from('<!doctype html><svg></svg>')],
    ['an HTML page with an svg inside', Buffer.from('<html><svg xmlns="http://www.w3.org/2000/svg"/></html>')],
    ['RIFF that is not WebP', Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1')],
    ['UTF-16 text', Buffer.from('\uFEFF<svg/>', 'utf16le')],
    ['nothing', Buffer.alloc(0)],
  ])('refuses %s', (_what, bytes) => {
    expect(sniffImage(bytes)).toBeNull();
  });
});

describe('[SECURITY][SVG] svgProblem', () => {
  it('accepts what design tools export: metadata, namespaces, gradients, internal references', () => {
    expect(svgProblem(INKSCAPE)).toBeNull();
  });

  it.each([
    ['<svg><script>x</script></svg>', 'script'],
    ['<svg><SCRIPT>x</SCRIPT></svg>', 'SCRIPT'],
    ['<svg><a xlink:href = " https://x.example">x</a></svg>', 'external'],
    ['<svg><image src="//x.example/a.png"/></svg>', 'external'],
    ['<svg><a href="&#x6A;avascript&#58;alert(1)">x</a></svg>', 'javascript'],
    ['<svg><a href="java\nscript:alert(1)">x</a></svg>', 'javascript'],
    ['<svg><rect style="fill:u\\72l(https://x.example)"/></svg>', 'backslash'],
    ['<svg><rect style="background:url( https://x.example )"/></svg>', 'url()'],
    ['<svg><rect style="background:image-set(\'https://x.example\' 1x)"/></svg>', 'external style'],
    ['<svg><handler>x</handler></svg>', 'handler'],
    ['<svg><rect title=">" onmouseover="x()"/></svg>', 'event handler'],
    ['<svg><a href=https://x.example>x</a></svg>', 'external'],
  ])('refuses %s', (svg, reason) => {
    expect(svgProblem(svg)).toContain(reason);
  });
});

/** What the upload stores for an SVG, or the refusal it answers with. */
async function uploaded(svg: string): Promise<{ stored: string } | { refused: string }> {
  try {
    return { stored: (await processImage(Buffer.from(svg))).bytes.toString('utf8') };
  } catch (err) {
    return { refused: (err as Error).message };
  }
}

describe('[SECURITY][SVG] SVG checked as a parsed tree (namespaces, an allowlist), stored as checked', () => {
  it.each([
    [
      'an XHTML script behind a non-ASCII prefix',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:é="http://www.w3.org/1999/xhtml"><é:script>alert(1)</é:script></svg>',
    ],
    [
      'an SVG script behind a non-ASCII prefix',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:ñ="http://www.w3.org/2000/svg"><ñ:script>alert(1)</ñ:script></svg>',
    ],
    [
      'a foreignObject behind a non-ASCII prefix holding an iframe',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:ø="http://www.w3.org/2000/svg"><ø:foreignObject width="9" height="9"><ø:iframe xmlns:ø="http://www.w3.org/1999/xhtml" srcdoc="x"/></ø:foreignObject></svg>',
    ],
    [
      'an XHTML embed behind a non-ASCII prefix',
      '<svg xmlns="http://www.w3.org/2000/svg"><ü:embed xmlns:ü="http://www.w3.org/1999/xhtml" src="#x"/></svg>',
    ],
  ])('refuses %s', async (_what, svg) => {
    const answer = await uploaded(svg);
    expect(answer).toEqual({ refused: expect.stringMatching(/^This SVG was refused because it contains a <[^>]+> element\./) });
  });

  // Payloads from public SVG XSS lists (OWASP's filter evasion sheet, PortSwigger's XSS cheat sheet, PayloadsAllTheThings).
  it.each([
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
    '<svg xmlns="http://www.w3.org/2000/svg"><animate onbegin="alert(1)" attributeName="x" dur="1s"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><set attributeName="onmouseover" to="alert(1)"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="#x"><animate attributeName="href" values="javascript:alert(1)"/><text x="20" y="20">Click</text></a></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><animate attributeName="href" values="#a;#b"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><discard onbegin="alert(1)"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><image href="#a" onerror="alert(1)"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><image href="#a"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><use href="data:image/svg+xml;base64,PHN2ZyBpZD0ieCIvPg==#x"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><feImage href="https://evil.example/x.svg"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><handler xmlns:ev="http://www.w3.org/2001/xml-events" ev:event="load">alert(1)</handler></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><a href="#x"><rect width="9" height="9"/></a></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><rect width="9" height="9" formaction="x"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><iframe xmlns="http://www.w3.org/1999/xhtml" src="#x"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><math xmlns="http://www.w3.org/1998/Math/MathML"><mi>x</mi></math></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><rect width="9" height="9"></svg>',
  ])('refuses %s', async (svg) => {
    expect(await uploaded(svg)).toEqual({ refused: expect.stringMatching(/^This SVG was refused because it contains /) });
  });

  it('keeps what design tools export, drops their bookkeeping and comments, and stores exactly what was checked', async () => {
    const answer = await uploaded(INKSCAPE);
    expect(answer).toHaveProperty('stored');
    const stored = (answer as { stored: string }).stored;
    expect(stored).not.toMatch(/namedview|inkscape:(?:zoom|label|version)|sodipodi:docname|rdf:RDF|dc:format|Created with/);
    for (const kept of [
      '<linearGradient id="a">',
      'clip-path="url(#c)"',
      'xlink:href="#a"',
      'Donation = one &amp; only',
      'viewBox="0 0 210 297"',
    ])
      expect(stored).toContain(kept);
    // Checking the stored text again changes nothing: it is what was checked.
    expect(await uploaded(stored)).toEqual({ stored });

    // Illustrator's export.
    const illustrator = `<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px"
	 viewBox="0 0 200 60" style="enable-background:new 0 0 200 60;" xml:space="preserve">
<style type="text/css">
	.st0{fill:#0B1F3A;}
	.st1{fill:#0F766E;}
</style>
<g id="Mark" data-name="Mark">
	<path class="st0" d="M10,10h40v40H10V10z"/>
	<circle class="st1" cx="30" cy="30" r="12"/>
</g>
<text transform="matrix(1 0 0 1 60 38)" class="st0" style="font-family:'Arial'; font-size:20px;">Sterling</text>
</svg>`;
    const ai = await uploaded(illustrator);
    expect(ai).toHaveProperty('stored');
    expect((ai as { stored: string }).stored).toContain('.st1{fill:#0F766E;}');
  });
});

const NS = 'xmlns="http://www.w3.org/2000/svg"';

describe('[SECURITY][SVG] the text checks read the file as it will be stored: comments and CDATA gone', () => {
  // Each was accepted when the text checks ran before comments were dropped: the stored file then
  // held `@import "http://…"` or `url(http://…)`.
  it.each([
    ['@im<!---->port', `<svg ${NS}><style>@im<!---->port "http://x.example/a.css";</style></svg>`, 'an external style reference'],
    ['u<!---->rl(', `<svg ${NS}><style>rect{fill:u<!---->rl(http://x.example/p)}</style><rect width="9" height="9"/></svg>`, 'url()'],
    ['<![CDATA[@im]]>port', `<svg ${NS}><style><![CDATA[@im]]>port "http://x.example/a.css";</style></svg>`, 'an external style reference'],
    [
      'image-<!---->set(',
      `<svg ${NS}><style>rect{fill:image-<!---->set("http://x.example/a.png" 1x)}</style></svg>`,
      'an external style reference',
    ],
    ['da<!---->ta:', `<svg ${NS}><style>rect{fill:url(da<!---->ta:image/png;base64,AAAA)}</style></svg>`, 'url'],
    [
      '@im<!-- x -->port in two comments',
      `<svg ${NS}><style>@<!--a-->im<!--b-->port url(http://x.example/a.css);</style></svg>`,
      'external',
    ],
  ])('refuses %s', async (_what, svg, reason) => {
    const answer = await uploaded(svg);
    expect(answer).toEqual({ refused: expect.stringContaining(reason) });
  });

  it('keeps a style split by a comment that says nothing outside, stored as one text', async () => {
    expect(await uploaded(`<svg ${NS}><style>rect{fill:<!-- brand -->#123456}</style><rect width="9" height="9"/></svg>`)).toEqual({
      stored: `<svg ${NS}><style>rect{fill:#123456}</style><rect width="9" height="9"/></svg>`,
    });
  });
});

describe('[SECURITY][SVG] bounded in size, depth and <use> expansion, checked without recursion', () => {
  /** Uses of uses of uses: `levels` of ten copies each over ten rectangles ("billion laughs" without entities). */
  const laughs = (levels: number) => {
    let defs = `<g id="l0">${'<rect width="1" height="1"/>'.repeat(10)}</g>`;
    for (let i = 1; i <= levels; i++) defs += `<g id="l${i}">${`<use href="#l${i - 1}"/>`.repeat(10)}</g>`;
    return `<svg ${NS}><defs>${defs}</defs><use href="#l${levels}"/></svg>`;
  };

  it('refuses a 1 KB chain of <use> that would draw a million elements', async () => {
    const svg = laughs(5);
    expect(svg.length).toBeLessThan(1500);
    expect(await uploaded(svg)).toEqual({ refused: expect.stringContaining('<use> references that draw more than 10,000 elements') });
  });

  it('keeps a sprite whose uses draw a few hundred elements', async () => {
    expect(await uploaded(laughs(1))).toHaveProperty('stored');
  });

  it('refuses a <use> that draws itself, directly or through an ancestor', async () => {
    for (const svg of [
      `<svg ${NS}><g id="x"><use href="#x"/></g></svg>`,
      `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink"><g id="a"><g id="b"><use xlink:href="#a"/></g></g></svg>`,
    ]) {
      expect(await uploaded(svg)).toEqual({ refused: expect.stringContaining('a <use> that draws itself') });
    }
  });

  it('refuses 20,000 and 10,000 nested groups with a 400 (no stack overflow), and keeps 150', async () => {
    const nested = (n: number) => `<svg ${NS}>${'<g>'.repeat(n)}<rect width="1" height="1"/>${'</g>'.repeat(n)}</svg>`;
    expect(await uploaded(nested(20_000))).toEqual({ refused: expect.stringContaining('more than 20,000 elements') });
    expect(await uploaded(nested(10_000))).toEqual({ refused: expect.stringContaining('elements nested more than 200 deep') });
    expect(await uploaded(nested(150))).toHaveProperty('stored');
  }, 30_000);

  it('refuses 300,000 rectangles (2 MB) and a 5 MB file of them before building a tree of them', async () => {
    for (const count of [300_000, (5 * 1024 * 1024) / 16]) {
      const svg = `<svg ${NS}>${'<rect width="1"/>'.repeat(count)}</svg>`;
      expect(await uploaded(svg)).toEqual({ refused: expect.stringContaining('more than 20,000 elements') });
    }
  }, 30_000);
});
