/**
 * A note renders inert (spec: markdown and names never run): raw HTML is dropped or shown as
 * text, javascript: links lose their target, images are never fetched. Rendered to static markup
 * with the app's real renderer and theme provider.
 */
import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MarkdownPreview } from './MarkdownPreview';

function render(text: string): string {
  return renderToStaticMarkup(
    <MantineProvider>
      <MarkdownPreview text={text} />
    </MantineProvider>,
  );
}

const HOSTILE = [
  '# Hostile note',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '[x](javascript:alert(1))',
  '[y](JaVa\tScRiPt:alert(2))',
  '<a href="javascript:alert(3)">raw link</a>',
  '<iframe src="https://evil.example"></iframe>',
  '<div onclick="alert(4)">raw div</div>',
  '![pic](https://tracker.example/p.png)',
  '[safe](https://example.com/page)',
].join('\n\n');

describe('MarkdownPreview renders a note inert', () => {
  it('keeps markdown but no script, handler, raw element, javascript: link or remote image', () => {
    const html = render(HOSTILE);
    expect(html).toContain('Hostile note</h1>');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<iframe/i);
    expect(html).not.toMatch(/onerror|onclick/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/tracker\.example/);
    // The javascript: link's text stays readable, without a target.
    expect(html).toMatch(/>x<\/span>/);
    expect(html).toContain('[Image: pic]');
    // An ordinary link still works, opened safely.
    expect(html).toMatch(/<a [^>]*href="https:\/\/example\.com\/page"[^>]*rel="noopener noreferrer nofollow"/);
  });
});

describe('MarkdownPreview renders GitHub-flavoured markdown', () => {
  const GFM = [
    '| Name | Size |',
    '| :--- | ---: |',
    '| **report**.pdf | 3 MB |',
    '| <img src=x onerror=alert(1)> | <script>alert(2)</script> |',
    '| [bad](javascript:alert(3)) | a \\| b |',
    '',
    '- [ ] buy milk',
    '- [x] pay rent',
    '- plain item',
    '',
    'This is ~~gone~~ and see https://example.com/docs. or www.example.org',
    '',
    '`~~code~~ https://not.a.link`',
  ].join('\n');

  it('renders a table with aligned columns and formatted cells', () => {
    const html = render(GFM);
    expect(html).toMatch(/<table[\s>]/);
    expect(html).toMatch(/<th[^>]*>Name<\/th>/);
    expect(html).toMatch(/<td[^>]*text-align:\s*right[^>]*>3 MB<\/td>/);
    expect(html).toContain('<strong>report</strong>.pdf');
    expect(html).toMatch(/<td[^>]*>a \| b<\/td>/);
  });

  it('keeps a table cell inert: no image, script, handler or javascript: link', () => {
    const html = render(GFM);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<script/i);
    // Raw HTML in a cell is dropped, as everywhere else in a note (skipHtml): never an element.
    expect(html).not.toMatch(/onerror/i);
    expect(html).toMatch(/<td[^>]*><\/td>/);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).toMatch(/>bad<\/span>/);
  });

  it('renders task lists as disabled checkboxes, ticked or not', () => {
    const html = render(GFM);
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*disabled=""[^>]*\/?> ?buy milk/);
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*checked=""[^>]*\/?> ?pay rent/);
    expect(html).not.toMatch(/\[ \]|\[x\]/);
    expect(html).toMatch(/<li>plain item<\/li>/);
  });

  it('renders strikethrough and bare links, but not inside code', () => {
    const html = render(GFM);
    expect(html).toContain('<del>gone</del>');
    expect(html).toMatch(/<a [^>]*href="https:\/\/example\.com\/docs"[^>]*>https:\/\/example\.com\/docs<\/a>\./);
    expect(html).toMatch(/<a [^>]*href="http:\/\/www\.example\.org"/);
    expect(html).toContain('~~code~~ https://not.a.link');
  });
});
