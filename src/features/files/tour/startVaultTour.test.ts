// @vitest-environment jsdom
/**
 * The tour's steps in a real DOM, with driver.js itself. driver.js ignores the arrow keys, Next and
 * Back until a step has finished appearing, a frame after its popover is on screen even without
 * motion: the popover says so with aria-busy, so a keyboard user's assistive technology (and a
 * test) can wait for it rather than lose a key.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startVaultTour, type RunningTour } from './startVaultTour';
import type { TourStep } from './vaultTourSteps';

const STEPS: TourStep[] = [
  { id: 'welcome', title: 'Welcome to your vault', text: 'First', targets: [] },
  { id: 'storage', title: 'Permanent storage', text: 'Second', targets: [] },
];

beforeAll(() => {
  // jsdom has no media queries: the user asks for reduced motion, so no step animates.
  window.matchMedia ??= (query: string) =>
    ({ matches: query.includes('reduce'), media: query, onchange: null, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, dispatchEvent: () => false }) as MediaQueryList;
});

let running: RunningTour | undefined;
afterEach(() => running?.stop());

const popover = () => document.querySelector<HTMLElement>('[role="dialog"]');
const title = () => popover()?.querySelector('.driver-popover-title')?.textContent;
const press = (key: string) => window.dispatchEvent(new KeyboardEvent('keyup', { key }));

describe('the vault tour in the page', () => {
  it('is busy until a step has finished appearing, and takes the arrow keys once it has', async () => {
    running = startVaultTour(STEPS, vi.fn());
    expect(title()).toBe('Welcome to your vault');
    expect(popover()!.getAttribute('aria-busy')).toBe('true');
    // A key while it is busy is lost: that is what the attribute warns of.
    press('ArrowRight');
    expect(title()).toBe('Welcome to your vault');

    await vi.waitFor(() => expect(popover()!.hasAttribute('aria-busy')).toBe(false));
    press('ArrowRight');
    expect(title()).toBe('Permanent storage');
    expect(popover()!.getAttribute('aria-busy')).toBe('true');
    await vi.waitFor(() => expect(popover()!.hasAttribute('aria-busy')).toBe(false));
    press('ArrowLeft');
    expect(title()).toBe('Welcome to your vault');
  });

  it('calls onClose once when Esc ends it', async () => {
    const onClose = vi.fn();
    running = startVaultTour(STEPS, onClose);
    await vi.waitFor(() => expect(popover()!.hasAttribute('aria-busy')).toBe(false));
    press('Escape');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(popover()).toBeNull();
  });
});
