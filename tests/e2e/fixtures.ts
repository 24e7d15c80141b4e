import { test as base, expect, type Page, type Request } from '@playwright/test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export { expect };

export const DATA_DIR = process.env.E2E_DATA_DIR ?? '';
export const MAINTENANCE_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 18_080) + 1}`;
const SCREENSHOT_DIR = join(process.cwd(), '.tmp', 'screenshots');

export { NEW_PASSWORD, STRONG_PASSWORD } from './passwords';

/**
 * Flips one byte of chunk `index` of `blobId` where the server keeps it
 * (DATA_DIR/blobs/{blobId}/{index}-{sha256}): what a compromised server or disk would serve.
 */
export function tamperChunk(blobId: string, index: number): void {
  const dir = join(DATA_DIR, 'blobs', blobId);
  const name = readdirSync(dir).find((entry) => entry.startsWith(`${index}-`));
  if (!name) throw new Error(`No chunk ${index} in ${dir}`);
  const bytes = readFileSync(join(dir, name));
  bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
  writeFileSync(join(dir, name), bytes);
}

/** DD/MM/YYYY of the browser's local day `offset` days from today (the date fields' format). */
export function localDay(page: Page, offset: number): Promise<string> {
  return page.evaluate((days) => {
    const d = new Date();
    d.setDate(d.getDate() + days);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
  }, offset);
}

let counter = 0;
/** A unique e-mail per test and project, so the projects can share one server. */
export function uniqueEmail(testInfo: { project: { name: string } }, label: string): string {
  counter += 1;
  return `${label}.${testInfo.project.name}.${Date.now().toString(36)}${counter}@example.com`;
}

/** Every request body the page sent, to prove no secret ever left the browser. */
export class RequestLog {
  readonly bodies: string[] = [];
  readonly urls: string[] = [];

  attach(page: Page): void {
    page.on('request', (request: Request) => {
      this.urls.push(request.url());
      const body = request.postData();
      if (body) this.bodies.push(body);
    });
  }

  expectNoneContains(secret: string): void {
    const needle = secret.toLowerCase();
    const leaks = [...this.bodies, ...this.urls].filter((text) => text.toLowerCase().includes(needle));
    expect(leaks, `a request carried "${secret}"`).toEqual([]);
  }
}

export const test = base.extend<{ requestLog: RequestLog; shoot: (name: string, options?: { fullPage?: boolean }) => Promise<void> }>({
  requestLog: async ({ page }, use) => {
    const log = new RequestLog();
    log.attach(page);
    await use(log);
  },
  /**
   * Saves a screenshot under .tmp/screenshots/<project>-<name>.png for review: the full page, or
   * the window (`fullPage: false`) where the page is a virtualized list that renders only what
   * the window shows.
   */
  shoot: async ({ page }, use, testInfo) => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await use(async (name: string, options?: { fullPage?: boolean }) => {
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${testInfo.project.name}-${name}.png`), fullPage: options?.fullPage ?? true });
    });
  },
});

/** Pastes a whole phrase into the first box, as a user pasting from a password manager would. */
export async function pastePhrase(page: Page, phrase: string): Promise<void> {
  const first = page.getByRole('textbox', { name: 'Word 1', exact: true });
  await first.evaluate((input: HTMLInputElement, text: string) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    input.focus();
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, phrase);
}

/**
 * Saves the page under .tmp/screenshots/<name>-desktop.png, then at 375 px as <name>-375.png, and
 * gives the page its viewport back: for specs that run in the desktop project only.
 */
export async function shootBothWidths(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  // The shell's layout settles after a resize (its navigation moves to the bottom bar).
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-375.png`), fullPage: true });
  if (viewport) await page.setViewportSize(viewport);
}
