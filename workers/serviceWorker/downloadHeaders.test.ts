import { describe, expect, it } from 'vitest';
import { attachmentDisposition, downloadHeaders } from './downloadHeaders';

/** The file name a client reading `filename*` gets back (RFC 5987 decoding). */
function extendedName(disposition: string): string {
  const match = /filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]*)$/.exec(disposition);
  if (!match) throw new Error(`no RFC 5987 filename* in ${disposition}`);
  return decodeURIComponent(match[1]!);
}

describe('download headers', () => {
  it('keeps a plain ASCII name as is in both forms', () => {
    expect(attachmentDisposition('report-2026.pdf')).toBe(`attachment; filename="report-2026.pdf"; filename*=UTF-8''report-2026.pdf`);
  });

  it('carries any name exactly in filename*, with an ASCII fallback', () => {
    for (const name of ['Résumé (final) *draft*.txt', '地図 🗺️.png', `it's "quoted" \\ 100%.md`, 'a;b=c,d.txt']) {
      const disposition = attachmentDisposition(name);
      expect(extendedName(disposition)).toBe(name);
      const fallback = /filename="([^"]*)"/.exec(disposition)![1]!;
      expect(fallback).toMatch(/^[\x20-\x7e]*$/);
      expect(fallback).not.toMatch(/["\\]/);
    }
  });

  it('survives lone surrogates and control characters, which no header may carry', () => {
    const disposition = attachmentDisposition('bad\uD800name\r\n.txt');
    expect(extendedName(disposition)).toBe('bad\uFFFDname__.txt');
    expect(disposition).not.toMatch(/[\r\n]/);
  });

  it('announces the size, never caches, and sends an unknown MIME type as octet-stream', () => {
    const headers = downloadHeaders({ fileName: 'x.bin', size: 2 * 1024 ** 3, mimeType: 'text/html; charset=utf-8' });
    expect(headers.get('content-length')).toBe('2147483648');
    expect(headers.get('content-type')).toBe('application/octet-stream');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(downloadHeaders({ fileName: 'x.png', size: 1, mimeType: 'image/png' }).get('content-type')).toBe('image/png');
  });
});
