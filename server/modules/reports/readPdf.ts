/**
 * Reads a PDF back for the tests and the benchmark (pdfjs-dist's legacy build, which runs on Node): each
 * page's text and size and how many images it paints, and how many image objects the file holds (an image
 * drawn twice is held once).
 */
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface ReadPdf {
  pages: { text: string; width: number; height: number; images: number }[];
  text: string;
  /** Image objects in the file (their dictionaries are never compressed, so they are counted in the bytes). */
  imageObjects: number;
}

export async function readPdf(data: Buffer | Uint8Array): Promise<ReadPdf> {
  const document = await getDocument({
    data: new Uint8Array(data),
    verbosity: 0,
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  const pages: ReadPdf['pages'] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const page = await document.getPage(n);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join('');
    const operators = await page.getOperatorList();
    let images = 0;
    for (const fn of operators.fnArray) if (fn === OPS.paintImageXObject) images += 1;
    const [x0, y0, x1, y1] = page.view as [number, number, number, number];
    pages.push({ text, width: Math.round(x1 - x0), height: Math.round(y1 - y0), images });
  }
  await document.destroy();
  const imageObjects =
    Buffer.from(data)
      .toString('latin1')
      .match(/\/Subtype \/Image\b/g)?.length ?? 0;
  return { pages, text: pages.map((page) => page.text).join('\n'), imageObjects };
}
