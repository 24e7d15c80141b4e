import { describe, expect, it } from 'vitest';
import { classifyPreview, isSafeLinkHref, orderVersions, previewBlobType } from './filePreviewRules';

describe('classifyPreview', () => {
  it('classifies by MIME type', () => {
    expect(classifyPreview('image/png', 'a')).toBe('image');
    expect(classifyPreview('application/pdf', 'a')).toBe('pdf');
    expect(classifyPreview('audio/mpeg', 'a')).toBe('audio');
    expect(classifyPreview('video/webm', 'a')).toBe('video');
    expect(classifyPreview('text/markdown', 'a')).toBe('markdown');
    expect(classifyPreview('text/plain; charset=utf-8', 'a')).toBe('text');
    expect(classifyPreview('application/zip', 'a.zip')).toBe('none');
  });

  it('falls back to the extension when the type is generic', () => {
    expect(classifyPreview('', 'notes.md')).toBe('markdown');
    expect(classifyPreview('application/octet-stream', 'IMG_01.JPG')).toBe('image');
    expect(classifyPreview('', 'report.pdf')).toBe('pdf');
    expect(classifyPreview('', 'data.csv')).toBe('text');
  });

  it('never renders active content: SVG and HTML are shown as text', () => {
    expect(classifyPreview('image/svg+xml', 'logo.svg')).toBe('text');
    expect(classifyPreview('text/html', 'page.html')).toBe('text');
    expect(classifyPreview('image/png', 'page.html')).toBe('image');
  });
});

describe('previewBlobType', () => {
  it('re-types blobs so an uploader cannot choose text/html', () => {
    expect(previewBlobType('pdf', 'text/html')).toBe('application/pdf');
    expect(previewBlobType('image', 'text/html')).toBe('image/png');
    expect(previewBlobType('image', 'image/webp')).toBe('image/webp');
    expect(previewBlobType('video', 'text/html')).toBe('video/mp4');
  });
});

describe('isSafeLinkHref', () => {
  it('allows http, https and mailto only', () => {
    expect(isSafeLinkHref('https://example.com')).toBe(true);
    expect(isSafeLinkHref('http://example.com/a?b')).toBe(true);
    expect(isSafeLinkHref('mailto:a@example.com')).toBe(true);
    expect(isSafeLinkHref('javascript:alert(1)')).toBe(false);
    expect(isSafeLinkHref(' JaVa\tScRiPt:alert(1)')).toBe(false);
    expect(isSafeLinkHref('data:text/html,<script>')).toBe(false);
    expect(isSafeLinkHref('/relative')).toBe(false);
    expect(isSafeLinkHref(undefined)).toBe(false);
  });
});

describe('orderVersions (spec 000 section 4: the selected version moves to the top)', () => {
  const versions = [{ versionId: 'v3' }, { versionId: 'v2' }, { versionId: 'v1' }];
  it('puts the selected version first and keeps the rest newest first', () => {
    expect(orderVersions(versions, 'v1').map((v) => v.versionId)).toEqual(['v1', 'v3', 'v2']);
  });
  it('keeps newest first when nothing (or an unknown id) is selected', () => {
    expect(orderVersions(versions, undefined).map((v) => v.versionId)).toEqual(['v3', 'v2', 'v1']);
    expect(orderVersions(versions, 'nope').map((v) => v.versionId)).toEqual(['v3', 'v2', 'v1']);
  });
});
