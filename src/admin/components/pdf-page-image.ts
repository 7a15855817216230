import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/*
 * pdf.js, in the owner's browser: the first page of a PDF drawn as a PNG thumbnail. This module
 * (and pdf.js's worker, a file of its own) loads only when a thumbnail is first shown; the server
 * never rasterises anything.
 */

GlobalWorkerOptions.workerSrc = workerUrl;

/** The first page of `bytes` as a PNG `cssWidth` CSS pixels wide (sharp on a high-density screen). */
export async function firstPageImage(bytes: ArrayBuffer, cssWidth: number): Promise<Blob> {
  // Glyphs drawn as paths, not loaded as web fonts: nothing for the page's font policy to refuse.
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true }).promise;
  try {
    const page = await doc.getPage(1);
    const scale = (cssWidth * Math.min(window.devicePixelRatio || 1, 2)) / page.getViewport({ scale: 1 }).width;
    const viewport = page.getViewport({ scale });
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(viewport.width);
    canvas.height = Math.ceil(viewport.height);
    await page.render({ canvas, canvasContext: canvas.getContext('2d')!, viewport }).promise;
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The page could not be drawn'))), 'image/png'),
    );
  } finally {
    await doc.destroy();
  }
}
