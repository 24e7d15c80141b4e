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
