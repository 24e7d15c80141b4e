/**
 * A long chat message does not fill the timeline (issue 26): it shows 8 lines with a 'more'
 * button; a short one shows whole, with no button. Rendered to static markup with the real
 * component and theme provider (the expand itself is driven in tests/e2e/feedback.spec.ts).
 */
import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { isLongMemo } from '../../domain/memoRules';
import type { MemoRecord } from '../../storage/vaultRecords';
import { MemoBubble } from './MemoBubble';

function render(text: string): string {
  const memo: MemoRecord = {
    accountId: 'a',
    vaultId: 'v',
    memoId: 'm',
    text,
    authorKey: 'k',
    createdAt: 0,
    order: 1,
    reactions: [],
    pendingOpIds: [],
    rejection: null,
  };
  return renderToStaticMarkup(
    <MantineProvider>
      <MemoBubble memo={memo} authorName="Ada" isMine={false} isHighlighted={false} now={0} reactions={null} onDismiss={() => {}} />
    </MantineProvider>,
  );
}

describe('MemoBubble clamps long messages', () => {
  it('a 3,000-character message is clamped with a collapsed "more" button', () => {
    const html = render('lorem ipsum '.repeat(250));
    expect(html).toMatch(/data-clamped="true"[^>]*data-testid="memo-text"/);
    expect(html).toMatch(/<button[^>]*aria-expanded="false"[^>]*>more<\/button>/);
  });

  it('a short message shows whole, with no button', () => {
    const html = render('See you at 10.\nBring the slides.');
    expect(html).not.toContain('data-clamped');
    expect(html).not.toMatch(/<button[^>]*>more</);
  });

  it('counts lines as well as characters: nine short lines are long, eight are not', () => {
    expect(isLongMemo(Array(9).fill('ok').join('\n'))).toBe(true);
    expect(isLongMemo(Array(8).fill('ok').join('\n'))).toBe(false);
    expect(isLongMemo('x'.repeat(36 * 8))).toBe(false);
    expect(isLongMemo('x'.repeat(36 * 8 + 1))).toBe(true);
  });
});
