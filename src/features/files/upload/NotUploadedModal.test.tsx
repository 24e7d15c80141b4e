/**
 * The NOT_ENOUGH_STORAGE message in the not-uploaded report (spec 000 section 8; issue 21) keeps
 * the spec's text verbatim, with its 'top up' a button that opens the top-up form. Rendered to
 * static markup with the real component (opening the form is driven in tests/e2e/topups.spec.ts
 * from the storage cards, which open the same TopUpModal).
 */
import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NOT_ENOUGH_STORAGE_MESSAGE } from '../../../sync/vaultActions';
import { NotEnoughStorage } from './NotUploadedModal';

describe('NOT_ENOUGH_STORAGE message', () => {
  const html = renderToStaticMarkup(
    <MantineProvider>
      <NotEnoughStorage onTopUp={() => {}} />
    </MantineProvider>,
  );
  const text = html.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, '').trim();

  it("reads as the spec's text, word for word", () => {
    expect(text).toBe('This file exceeds the storage limit on your account. You can top up or upgrade your subscription plan to add more storage.');
    expect(text).toBe(NOT_ENOUGH_STORAGE_MESSAGE);
  });

  it("makes its 'top up' a button (the top-up form's opener), and nothing else", () => {
    expect(html.match(/<button[^>]*>([^<]*)<\/button>/g)).toEqual([expect.stringMatching(/>top up<\/button>$/)]);
  });
});
