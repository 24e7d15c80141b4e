/**
 * The timeline of a vault of 10,000+ operations in Chromium (run by tests/bench/run.ts after the
 * 10,000-file folder, on the same vault): the Timeline tab clicked in the app until its first
 * entry shows, every page loaded with 'Load more activity...', then the document scrolled top to
 * bottom at 600 px a frame, with frame times and long tasks. Prints figures; judges nothing but
 * whether the list reached its end (the vault's creation, its oldest item).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { flingToBottom } from './scrollFling';

/**
 * BENCH_CPU_PROFILE=<dir>: a Chromium CPU profile (page main thread) of the upload, the folder's scroll, the timeline's first render and its scroll is written
 * there (upload.cpuprofile, folder-scroll.cpuprofile, timeline-first-render.cpuprofile, timeline-scroll.cpuprofile; open them in DevTools'
 * Performance panel). Profiling slows the page, so figures of such a run are not comparable.
 */
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE;

export async function startProfile(page: Page): Promise<CDPSession | null> {
  if (!PROFILE_DIR) return null;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return cdp;
}

export async function stopProfile(cdp: CDPSession | null, name: string, log: (text: string) => void): Promise<void> {
  if (!cdp || !PROFILE_DIR) return;
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
  const path = join(PROFILE_DIR, `${name}.cpuprofile`);
  writeFileSync(path, JSON.stringify(profile));
  await cdp.detach();
  log(`CPU profile: ${path}`);
}

interface BenchWindow {
  __bench: { longTasks: Array<{ start: number; duration: number }>; stopRowWatch?: () => void };
}

type Record = (label: string, value: string, note?: string) => void;

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export async function benchTimeline(page: Page, vaultUrl: string, record: Record, log: (text: string) => void): Promise<void> {
  await page.goto(vaultUrl);
  await page.getByRole('tab', { name: 'Timeline' }).waitFor();
  // The run's watch for the folder's first row observes every DOM change of the page: not here.
  await page.evaluate(() => (window as unknown as BenchWindow).__bench.stopRowWatch?.());
  await page.waitForTimeout(500);

  // 1. In-app click on the tab until the first entry is in the DOM, and the frame that paints it.
  const firstProfile = await startProfile(page);
  const first = await page.evaluate(async () => {
    const w = window as unknown as BenchWindow;
    const tab = [...document.querySelectorAll('[role="tab"]')].find((el) => (el.textContent ?? '').trim() === 'Timeline') as HTMLElement | undefined;
    if (!tab) return null;
    const tasksBefore = w.__bench.longTasks.length;
    const hasEntry = () => document.querySelector('[data-testid="timeline-entry"]') !== null;
    const start = performance.now();
    const shown = new Promise<number>((resolve) => {
      const observer = new MutationObserver(() => {
        if (hasEntry()) {
          observer.disconnect();
          resolve(performance.now());
        }
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    tab.click();
    const entryAt = await Promise.race([shown, new Promise<number>((resolve) => setTimeout(() => resolve(-1), 60_000))]);
    const paintAt = await new Promise<number>((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const tasks = w.__bench.longTasks.slice(tasksBefore);
    return {
      entryMs: entryAt < 0 ? -1 : entryAt - start,
      paintMs: paintAt - start,
      longTasks: tasks.length,
      longestTask: Math.max(0, ...tasks.map((t) => t.duration)),
    };
  });
  await stopProfile(firstProfile, 'timeline-first-render', log);
  if (!first || first.entryMs < 0) {
    record('timeline: first render (tab click → first entry)', 'NOT MEASURED', '(no Timeline tab or no entry within 60 s)');
    return;
  }
  const countText = (await page.getByText(/^[\d,]+ actions?$/).first().textContent()) ?? '?';
  record(
    `timeline: first render of ${countText} (tab click → first entry)`,
    `${fmt(first.entryMs)} ms (next frame at ${fmt(first.paintMs)} ms); long tasks ${first.longTasks}, longest ${fmt(first.longestTask)} ms`,
  );

  // 2. Every page through 'Load more activity...' (25 entries a click), timed per click.
  log('timeline: loading every page with Load more activity...');
  const loading = await page.evaluate(async () => {
    const w = window as unknown as BenchWindow;
    const tasksBefore = w.__bench.longTasks.length;
    const button = () => [...document.querySelectorAll('button')].find((b) => (b.textContent ?? '').trim() === 'Load more activity...');
    const clicks: number[] = [];
    const start = performance.now();
    for (let b = button(); b && performance.now() - start < 300_000; b = button()) {
      const t = performance.now();
      b.click();
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      clicks.push(performance.now() - t);
    }
    const sorted = [...clicks].sort((a, b) => a - b);
    const tasks = w.__bench.longTasks.slice(tasksBefore);
    return {
      clicks: clicks.length,
      totalMs: performance.now() - start,
      p50: sorted[Math.floor(sorted.length / 2)] ?? 0,
      p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
      worst: sorted.at(-1) ?? 0,
      longTasks: tasks.length,
      isComplete: !button(),
    };
  });
  record(
    'timeline: Load more activity... until the end',
    `${loading.clicks} clicks in ${fmt(loading.totalMs / 1000, 1)} s; per click p50 ${fmt(loading.p50, 1)} ms, p95 ${fmt(loading.p95, 1)} ms, worst ${fmt(loading.worst, 1)} ms; long tasks ${loading.longTasks}`,
    loading.isComplete ? '' : 'GOAL MISSED (not every page loaded within 300 s)',
  );

  // 3. Scroll the document top → bottom, 600 px a frame; the bottom is read again every frame
  // since the virtualizer measures rows as they show.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(500);
  const scrollProfile = await startProfile(page);
  const fling = await flingToBottom(page, null);
  await stopProfile(scrollProfile, 'timeline-scroll', log);
  const listed = await page.evaluate(() => {
    const entries = [...document.querySelectorAll('[data-testid="timeline-entry"]')];
    return { entriesInDom: entries.length, lastEntry: (entries.at(-1)?.textContent ?? '').slice(0, 80) };
  });
  const scroll = { ...fling, ...listed };
  const lf = fling.longFrames;
  // Attribution for the log (not a figure): was a long frame our script, style and layout, or neither (the machine)?
  log(
    `timeline scroll: ${lf.count} long animation frames, ${Math.round(lf.totalMs)} ms in all: scripts ${Math.round(lf.scriptMs)} ms, style and layout ${Math.round(lf.styleAndLayoutMs)} ms${lf.topScripts.length ? `; scripts: ${lf.topScripts.join(', ')}` : ''}`,
  );
  const reachedEnd = /created the vault/.test(scroll.lastEntry);
  const smooth = scroll.longTasks === 0 && scroll.slowFrames === 0;
  record(
    'timeline: scroll top → bottom',
    `${fmt(scroll.scrollPx)} px in ${fmt(scroll.elapsedMs)} ms over ${scroll.frames} frames; frame p95 ${fmt(scroll.p95, 1)} ms, worst ${fmt(scroll.worst, 1)} ms, frames > 50 ms: ${scroll.slowFrames}; long tasks ${scroll.longTasks}, longest ${fmt(scroll.longestTask)} ms; ${scroll.entriesInDom} entries in the DOM${scroll.isTimedOut ? ' (stopped after 120 s)' : ''}`,
    !reachedEnd
      ? `GOAL MISSED (the list ends at '${scroll.lastEntry}', not the vault's creation)`
      : smooth
        ? 'smooth (no long task, no frame > 50 ms)'
        : 'GOAL MISSED (long tasks or frames > 50 ms while scrolling)',
  );
}
