/**
 * docs/SYNC_SPEC.md R79a: a PDF's thumbnail is its first page, drawn by pdfjs at most 256 px on its
 * longer side. Runs pdfjs's legacy build (the one the worker loads) on @napi-rs/canvas, standing
 * in for the worker's OffscreenCanvas, with pdfjs's parser in this thread (Node has no Web
 * Workers; the e2e runs the worker's own parser worker); what is drawn is read back pixel by pixel.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { minimalPdf } from '../../tests/fixtures/minimalPdf';
import { loadPdfjs } from './loadPdfjs';
import { renderPdfFirstPage, type Pdfjs, type PdfThumbnailPorts } from './pdfThumbnail';

type NodeCanvas = Canvas;

let loads = 0;
const ports: PdfThumbnailPorts<NodeCanvas> = {
  loadPdfjs() {
    loads++;
    return loadPdfjs();
  },
  createCanvas: (width, height) => createCanvas(width, height),
};

function pixel(canvas: NodeCanvas, x: number, y: number): number[] {
  return [...canvas.getContext('2d').getImageData(x, y, 1, 1).data];
}

describe('[R79a] a PDF thumbnail is its first page', () => {
  it('a landscape page of 600 x 400 points is drawn at 256 x 171, its red rectangle where the page has it', async () => {
    // The rectangle covers x 150..450 and y 100..300 points (PDF y grows upwards).
    const pdf = minimalPdf({ width: 600, height: 400, content: '1 0 0 rg 150 100 300 200 re f' });
    const canvas = await renderPdfFirstPage(pdf, ports);
    expect(canvas).not.toBeNull();
    expect([canvas!.width, canvas!.height]).toEqual([256, 171]);
    const [r, g, b, a] = pixel(canvas!, 128, 85);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(60);
    expect(b).toBeLessThan(60);
    expect(a).toBe(255);
    // Outside the rectangle, the page's white (not transparent).
    expect(pixel(canvas!, 5, 5)).toEqual([255, 255, 255, 255]);
  });

  it('a portrait page keeps its proportions and only page 1 is drawn', async () => {
    const pdf = minimalPdf({ width: 300, height: 600, content: '0 0 1 rg 0 0 300 600 re f', secondPage: '1 0 0 rg 0 0 300 600 re f' });
    const canvas = await renderPdfFirstPage(pdf, ports);
    expect([canvas!.width, canvas!.height]).toEqual([128, 256]);
    const [r, , b] = pixel(canvas!, 64, 128);
    expect(b).toBeGreaterThan(200);
    expect(r).toBeLessThan(60);
  });

  it('broken, empty, non-PDF and oversized pages give no thumbnail and do not throw', async () => {
    const broken = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    await expect(renderPdfFirstPage(broken, ports)).resolves.toBeNull();
    await expect(renderPdfFirstPage(new Uint8Array(0), ports)).resolves.toBeNull();
    await expect(renderPdfFirstPage(new TextEncoder().encode('Camp at 3,100 m.'), ports)).resolves.toBeNull();
    const truncated = minimalPdf({ width: 600, height: 400, content: '1 0 0 rg 0 0 10 10 re f' }).slice(0, 120);
    await expect(renderPdfFirstPage(truncated, ports)).resolves.toBeNull();
    // A page wider than the format allows (PDF_THUMBNAIL_LIMITS.PAGE_POINTS) is not drawn.
    const huge = minimalPdf({ width: 100_000, height: 400, content: '1 0 0 rg 0 0 10 10 re f' });
    await expect(renderPdfFirstPage(huge, ports)).resolves.toBeNull();
  });

  it('a page whose drawing never ends gives no thumbnail: the render is cancelled, the document freed, the parser ended', async () => {
    const events: string[] = [];
    // A pdfjs stand-in whose page never finishes drawing, as a hostile page might.
    const stuck: Pdfjs = {
      AnnotationMode: { DISABLE: 0 },
      PDFWorker: class {
        destroy() {}
      },
      getDocument: () => ({
        promise: Promise.resolve({
          getPage: async () => ({
            getViewport: ({ scale }: { scale: number }) => ({ width: 600 * scale, height: 400 * scale }),
            render: () => ({ promise: new Promise<void>(() => {}), cancel: () => events.push('cancelled') }),
          }),
        }),
        destroy: async () => {
          events.push('destroyed');
        },
      }),
    };
    const pdf = minimalPdf({ width: 600, height: 400, content: '1 0 0 rg 150 100 300 200 re f' });
    const startParser = () => ({ params: {}, stop: () => events.push('parser ended') });
    await expect(renderPdfFirstPage(pdf, { ...ports, loadPdfjs: async () => stuck, startParser, timeLimitMs: 20 })).resolves.toBeNull();
    expect(events).toEqual(['cancelled', 'destroyed', 'parser ended']);
  });

  it('pdfjs that cannot be loaded (offline, say) gives no thumbnail', async () => {
    const pdf = minimalPdf({ width: 600, height: 400, content: '1 0 0 rg 150 100 300 200 re f' });
    const offline = { ...ports, loadPdfjs: () => Promise.reject(new Error('Failed to fetch dynamically imported module')) };
    await expect(renderPdfFirstPage(pdf, offline)).resolves.toBeNull();
    expect(loads).toBeGreaterThan(0);
  });
});
