/**
 * Scrolls a list top to bottom in the page, 600 px a frame (a fast fling), and measures the
 * frames and the long tasks seen meanwhile (the page's init script collects them into
 * `window.__bench.longTasks`). Shared by the folder and timeline benches.
 */
import type { Page } from 'playwright-core';

export interface FlingResult {
  /** The element scrolled: a description, 'document' for the page itself. */
  container: string;
  scrollPx: number;
  elapsedMs: number;
  frames: number;
  p95: number;
  worst: number;
  /** Frames longer than 50 ms. */
  slowFrames: number;
  longTasks: number;
  longestTask: number;
  isTimedOut: boolean;
  /** Where the long animation frames' time went (empty where the browser reports none). */
  longFrames: { count: number; totalMs: number; scriptMs: number; styleAndLayoutMs: number; topScripts: string[] };
}

/**
 * Scrolls the nearest scrollable ancestor of `within` (a CSS selector), or the document when
 * there is none or `within` is null. The bottom is read again every frame, since virtualized
 * lists measure rows as they show.
 */
export function flingToBottom(page: Page, within: string | null): Promise<FlingResult> {
  return page.evaluate(async (selector) => {
    const w = window as unknown as {
      __bench: { longTasks: { duration: number }[]; longFrames?: { duration: number; styleAndLayout: number; scripts: { what: string; duration: number }[] }[] };
    };
    let container: HTMLElement | null = null;
    const inner = selector ? document.querySelector(selector) : null;
    for (let el = inner?.parentElement ?? null; el; el = el.parentElement) {
      if (/(auto|scroll)/.test(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + 10) {
        container = el;
        break;
      }
    }
    const scroller = container ?? (document.scrollingElement as HTMLElement);
    const bottom = () => scroller.scrollHeight - scroller.clientHeight;
    const tasksBefore = w.__bench.longTasks.length;
    const longFramesBefore = w.__bench.longFrames?.length ?? 0;
    const frames: number[] = [];
    const start = performance.now();
    let atBottomFrames = 0;
    let isTimedOut = false;
    await new Promise<void>((resolve) => {
      let last = performance.now();
      const tick = () => {
        const now = performance.now();
        frames.push(now - last);
        last = now;
        atBottomFrames = scroller.scrollTop >= bottom() - 1 ? atBottomFrames + 1 : 0;
        isTimedOut = now - start > 120_000;
        if (atBottomFrames >= 3 || isTimedOut) return resolve();
        scroller.scrollTop = Math.min(bottom(), scroller.scrollTop + 600);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const elapsedMs = performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const tasks = w.__bench.longTasks.slice(tasksBefore);
    const longFrames = (w.__bench.longFrames ?? []).slice(longFramesBefore);
    const byScript = new Map<string, number>();
    for (const frame of longFrames) for (const script of frame.scripts) byScript.set(script.what, (byScript.get(script.what) ?? 0) + script.duration);
    frames.shift();
    // The frames spent waiting at the bottom are not scrolling.
    frames.splice(frames.length - 2, 2);
    const sorted = [...frames].sort((a, b) => a - b);
    return {
      container: container ? `${container.tagName.toLowerCase()}${container.className ? '.' + String(container.className).split(' ')[0] : ''}` : 'document',
      scrollPx: scroller.scrollTop,
      elapsedMs,
      frames: frames.length,
      p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
      worst: sorted.at(-1) ?? 0,
      slowFrames: frames.filter((f) => f > 50).length,
      longTasks: tasks.length,
      longestTask: Math.max(0, ...tasks.map((t) => t.duration)),
      isTimedOut,
      longFrames: {
        count: longFrames.length,
        totalMs: longFrames.reduce((sum, f) => sum + f.duration, 0),
        scriptMs: longFrames.reduce((sum, f) => sum + f.scripts.reduce((s, x) => s + x.duration, 0), 0),
        styleAndLayoutMs: longFrames.reduce((sum, f) => sum + f.styleAndLayout, 0),
        topScripts: [...byScript].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([what, ms]) => `${what} ${Math.round(ms)} ms`),
      },
    };
  }, within);
}
