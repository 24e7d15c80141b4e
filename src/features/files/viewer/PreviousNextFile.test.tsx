// @vitest-environment jsdom
/**
 * The viewer's arrow keys step through the folder from the file on screen (spec 000 section 4,
 * stack viewer). Rendered into a real DOM: a key pressed as soon as the next file is on screen,
 * before React's passive effects run (a busy phone), must still step from that file.
 */
import { MantineProvider } from '@mantine/core';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PreviousNextFile } from './PreviousNextFile';

const FILES = ['a-first', 'b-second', 'c-third'];

beforeAll(() => {
  // jsdom has no media queries; Mantine's colour scheme asks for one.
  window.matchMedia ??= (query: string) =>
    ({ matches: false, media: query, onchange: null, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, dispatchEvent: () => false }) as MediaQueryList;
});

let root: Root | undefined;
afterEach(() => root?.unmount());

function mount(): { show: (currentId: string) => Promise<void>; container: HTMLElement; onOpen: ReturnType<typeof vi.fn> } {
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  const onOpen = vi.fn();
  /** Renders the viewer's buttons for `currentId`; the promise holds until they are on screen. */
  const show = (currentId: string) => {
    root!.render(
      <MantineProvider>
        <PreviousNextFile fileIds={FILES} currentId={currentId} onOpen={onOpen} />
      </MantineProvider>,
    );
    return shown(container, `${FILES.indexOf(currentId) + 1} of ${FILES.length}`);
  };
  return { show, container, onOpen };
}

/** Waits until `text` is on screen and React's effects have run. */
async function shown(container: HTMLElement, text: string): Promise<void> {
  await vi.waitFor(() => expect(container.textContent).toContain(text));
  await new Promise((resolve) => setTimeout(resolve, 20));
}
// With nothing focused, a key press goes to the page's body.
const press = (key: string) => document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));

/** Presses `key` the moment `text` is on screen: in the microtask right after React's commit. */
function pressWhenShown(container: HTMLElement, text: string, key: string): Promise<void> {
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!container.textContent?.includes(text)) return;
      observer.disconnect();
      press(key);
      resolve();
    });
    observer.observe(container, { subtree: true, childList: true, characterData: true });
  });
}

describe('PreviousNextFile', () => {
  it('steps with the arrow keys and stops at either end', async () => {
    const { show, onOpen } = mount();
    await show('c-third');
    press('ArrowRight');
    expect(onOpen).not.toHaveBeenCalled();
    press('ArrowLeft');
    expect(onOpen).toHaveBeenLastCalledWith('b-second');
    await show('a-first');
    press('ArrowLeft');
    expect(onOpen).toHaveBeenCalledTimes(1);
    press('ArrowRight');
    expect(onOpen).toHaveBeenLastCalledWith('b-second');
  });

  it('steps from the file on screen when the key comes right after it is shown', async () => {
    const { show, container, onOpen } = mount();
    await show('c-third');
    const pressed = pressWhenShown(container, '2 of 3', 'ArrowLeft');
    void show('b-second');
    await pressed;
    expect(onOpen).toHaveBeenLastCalledWith('a-first');
  });

  it('leaves the keys to a field being typed in', async () => {
    const { show, onOpen } = mount();
    await show('b-second');
    const field = document.createElement('input');
    document.body.append(field);
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true }));
    expect(onOpen).not.toHaveBeenCalled();
    field.remove();
  });
});
