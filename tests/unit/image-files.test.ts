import { describe, expect, it } from 'vitest';
import { sniffImage, svgProblem } from '#server/services/image-files.ts';

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

describe('svgProblem', () => {
  it('accepts what design tools export: metadata, namespaces, gradients, internal references', () => {
    const inkscape = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
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
  <g clip-path="url(#c)" fill="url('#a')"><use xlink:href="#a" href="#a" /><text>Donation = one &amp; only</text></g>
</svg>`;
    expect(svgProblem(inkscape)).toBeNull();
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
