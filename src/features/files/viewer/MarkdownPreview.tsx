import { Anchor, Code, Text, Typography } from '@mantine/core';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { isSafeLinkHref } from '../../../domain/filePreviewRules';
import classes from './MarkdownPreview.module.css';

/**
 * A note rendered inert: raw HTML is dropped (skipHtml, and no rehype-raw), links keep only
 * http(s) and mailto targets (anything else is plain text), and images are never fetched (a
 * remote image would tell its host who opened the note, and when). GitHub-flavoured tables, task
 * lists, strikethrough and bare links come from remark-gfm and pass through the same rules (its
 * footnotes too; its tag filter does not matter, as no HTML is rendered at all).
 */
const REMARK_PLUGINS = [remarkGfm];

const COMPONENTS: Components = {
  a: ({ href, children }) =>
    isSafeLinkHref(href) ? (
      <Anchor href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </Anchor>
    ) : (
      <Text span inherit>
        {children}
      </Text>
    ),
  img: ({ alt }) => (
    <Text span c="dimmed" fz="sm">
      [Image{alt ? `: ${alt}` : ''}]
    </Text>
  ),
  code: ({ children }) => <Code>{children}</Code>,
  table: ({ children }) => (
    <div className={classes.tableScroll}>
      <table>{children}</table>
    </div>
  ),
};

export function MarkdownPreview({ text }: { text: string }) {
  return (
    <Typography>
      <div data-testid="markdown-preview" className={classes.preview} style={{ overflowWrap: 'anywhere' }}>
        <Markdown skipHtml remarkPlugins={REMARK_PLUGINS} components={COMPONENTS}>
          {text}
        </Markdown>
      </div>
    </Typography>
  );
}
