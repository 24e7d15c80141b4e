/**
 * GitHub-flavoured markdown for notes: tables, task lists, strikethrough and bare-link autolinks,
 * as a remark plugin over the CommonMark tree. The usual plugin (remark-gfm) is not installed, so
 * this works on what CommonMark leaves behind instead of extending the tokenizer:
 * - a table is a paragraph whose source lines are a header row, a delimiter row and body rows;
 *   each cell is parsed again as markdown (with the same parser), so its content goes through the
 *   same inert rendering as any other text (raw HTML in a cell stays an `html` node, which the
 *   renderer drops);
 * - a task is a list item whose text starts with `[ ]` or `[x]`;
 * - `~~text~~` and `https://...` / `www....` inside plain text become `delete` and `link` nodes
 *   (never inside code or an existing link). Links still pass the renderer's safe-link check.
 * Known limits: a table must start its paragraph (not interrupt one) and cannot sit in a block
 * quote; strikethrough does not span other inline markup.
 */
import type { Link, ListItem, Nodes, Paragraph, PhrasingContent, Root, RootContent, Table, TableCell, TableRow, Text } from 'mdast';

type Parser = { parse(document: string): unknown };
type Align = 'left' | 'right' | 'center' | null;

const DELIMITER_CELL = /^\s*(:?)-+(:?)\s*$/;
const TASK_PREFIX = /^\[([ xX])\](?:\s+|$)/;
const INLINE_TOKEN = /~~(?=\S)([^~]*?\S)~~|\b(?:https?:\/\/|www\.)[^\s<>]+/g;
/** Punctuation after a bare link belongs to the sentence, as on GitHub. */
const TRAILING_PUNCTUATION = /[.,:;!?'")\]*_]+$/;

/** Splits a table row on pipes that are not escaped; outer pipes are optional. */
function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let current = '';
  for (let i = 0; i < row.length; i++) {
    const char = row[i]!;
    if (char === '\\' && row[i + 1] === '|') {
      current += '|';
      i++;
    } else if (char === '|') {
      cells.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  cells.push(current.trim());
  return cells;
}

function parseAlign(lines: readonly string[]): Align[] | null {
  if (lines.length < 2 || !lines[0]!.includes('|') && !lines[1]!.includes('|')) return null;
  const delimiters = splitRow(lines[1]!);
  const aligns: Align[] = [];
  for (const cell of delimiters) {
    const match = DELIMITER_CELL.exec(cell);
    if (!match) return null;
    aligns.push(match[1] && match[2] ? 'center' : match[2] ? 'right' : match[1] ? 'left' : null);
  }
  return splitRow(lines[0]!).length === aligns.length ? aligns : null;
}

function phrasingOf(parser: Parser, text: string): PhrasingContent[] {
  if (!text) return [];
  const tree = parser.parse(text) as Root;
  const first = tree.children[0];
  if (tree.children.length === 1 && first && (first.type === 'paragraph' || first.type === 'heading')) return first.children;
  return [{ type: 'text', value: text }];
}

function toTable(parser: Parser, source: string, paragraph: Paragraph): Table | null {
  const start = paragraph.position?.start.offset;
  const end = paragraph.position?.end.offset;
  if (start === undefined || end === undefined) return null;
  const lines = source.slice(start, end).split(/\r?\n/);
  const align = parseAlign(lines);
  if (!align) return null;
  const row = (line: string): TableRow => {
    const cells = splitRow(line);
    return {
      type: 'tableRow',
      children: align.map((_, i): TableCell => ({ type: 'tableCell', children: phrasingOf(parser, cells[i] ?? '') })),
    };
  };
  return { type: 'table', align, children: [row(lines[0]!), ...lines.slice(2).map(row)] };
}

function markTask(item: ListItem) {
  const paragraph = item.children[0];
  const text = paragraph?.type === 'paragraph' ? paragraph.children[0] : undefined;
  if (!paragraph || paragraph.type !== 'paragraph' || text?.type !== 'text') return;
  const match = TASK_PREFIX.exec(text.value);
  if (!match) return;
  item.checked = match[1] !== ' ';
  text.value = text.value.slice(match[0].length);
  if (!text.value) paragraph.children.shift();
}

function splitText(node: Text): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let last = 0;
  for (const match of node.value.matchAll(INLINE_TOKEN)) {
    let token = match[0];
    const index = match.index;
    if (match[1] === undefined) {
      token = token.replace(TRAILING_PUNCTUATION, '');
      if (!token.includes('.', token.startsWith('www.') ? 4 : 0) && !token.includes('://')) continue;
    }
    if (index > last) out.push({ type: 'text', value: node.value.slice(last, index) });
    if (match[1] !== undefined) {
      out.push({ type: 'delete', children: [{ type: 'text', value: match[1] }] });
    } else {
      const link: Link = { type: 'link', url: token.startsWith('www.') ? `http://${token}` : token, children: [{ type: 'text', value: token }] };
      out.push(link);
    }
    last = index + token.length;
  }
  if (last === 0) return [node];
  if (last < node.value.length) out.push({ type: 'text', value: node.value.slice(last) });
  return out;
}

function transform(parser: Parser, source: string, node: Nodes) {
  if (!('children' in node)) return;
  if (node.type === 'link' || node.type === 'linkReference') return;
  const children = node.children as RootContent[];
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.type === 'paragraph' && node.type !== 'blockquote') {
      const table = toTable(parser, source, child);
      if (table) children[i] = table;
    }
    if (child.type === 'listItem') markTask(child);
    if (child.type === 'text') {
      const parts = splitText(child);
      children.splice(i, 1, ...(parts as RootContent[]));
      i += parts.length - 1;
      continue;
    }
    transform(parser, source, children[i]!);
  }
}

/** The plugin: `<Markdown remarkPlugins={[remarkGfmLite]}>`. */
export function remarkGfmLite(this: Parser) {
  const parser: Parser = { parse: (document) => this.parse(document) };
  return (tree: Root, file: { value?: unknown }) => {
    transform(parser, String(file.value ?? ''), tree);
  };
}
