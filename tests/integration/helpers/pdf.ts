import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

interface StructNode {
  role?: string;
  alt?: string;
  children?: StructNode[];
}

/** What pdf.js reads of a PDF: pages, text, metadata, the structure tree's roles in reading order. */
export async function readPdf(bytes: Uint8Array) {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const page = await doc.getPage(1);
    const text = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    const info = (await doc.getMetadata()).info as unknown as Record<string, unknown>;
    const roles: string[] = [];
    const alts: string[] = [];
    const walk = (n: StructNode) => {
      if (n.role) roles.push(n.role);
      if (n.alt) alts.push(n.alt);
      n.children?.forEach(walk);
    };
    walk((await page.getStructTree()) as StructNode);
    return { pages: doc.numPages, text: text.replace(/\s+/g, ' '), info, roles, alts, markInfo: await doc.getMarkInfo() };
  } finally {
    await doc.destroy();
  }
}

/** The text items of a PDF's first page with where each starts, in points from the top-left corner. */
export async function textItems(bytes: Uint8Array): Promise<{ str: string; x: number; top: number }[]> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const page = await doc.getPage(1);
    const height = page.view[3]!;
    return (await page.getTextContent()).items
      .filter((i) => 'str' in i && i.str.trim() !== '')
      .map((i) => {
        const item = i as { str: string; transform: number[] };
        return { str: item.str, x: item.transform[4]!, top: height - item.transform[5]! };
      });
  } finally {
    await doc.destroy();
  }
}
