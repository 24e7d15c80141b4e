import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { rgbPng } from '../fixtures/gradientPng';
import { minimalPdf } from '../fixtures/minimalPdf';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

const SCREENS = '.tmp/screens';

/** A real PNG: a sky-to-rock gradient with a sun, so the thumbnail is visibly an image. */
function landscapePng(width: number, height: number): Buffer {
  return rgbPng(width, height, (x, y) => {
    const isSun = (x - width * 0.7) ** 2 + (y - height * 0.3) ** 2 < (height * 0.12) ** 2;
    const isRidge = y > height * 0.55 + Math.sin(x / 40) * height * 0.1;
    return isSun ? [250, 200, 60] : isRidge ? [70, 90 + (y % 40), 60] : [90, 150, 230 - Math.round((y / height) * 80)];
  });
}

/** An A4 route sheet: a teal title band, grey lines of 'text' and a red route box (R79a). */
function routeSheetPdf(): Buffer {
  const lines = Array.from({ length: 14 }, (_, i) => `0.6 0.6 0.6 rg 60 ${640 - i * 28} ${i % 3 === 2 ? 300 : 475} 10 re f`).join('\n');
  const content = `0.11 0.42 0.38 rg 0 742 595 100 re f\n${lines}\n0.85 0.2 0.2 rg 60 60 475 170 re f`;
  return Buffer.from(minimalPdf({ width: 595, height: 842, content }));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// docs/SYNC_SPEC.md R79 (issue 26): images get thumbnails made on the device, stored sealed in a
// private vault, shown in the list and in the grid view, which the device remembers.
test('[R79][R79a] thumbnails: a private image and a PDF show their thumbnail in the list and the grid; the server holds no clear image', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const width = testInfo.project.name;
  const email = uniqueEmail(testInfo, 'thumbs');
  // This vault's blobs, as the device uploads them: other tests' public vaults store images in clear.
  const blobIds = new Set<string>();
  page.context().on('request', (request) => {
    const match = /\/api\/vaults\/[^/]+\/blobs\/([^/]+)\/chunks\//.exec(request.url());
    if (match && request.method() === 'PUT') blobIds.add(decodeURIComponent(match[1]!));
    // Small files go a group at a time, announced together (their chunks then go in one body).
    if (/\/api\/vaults\/[^/]+\/blobs\/batch$/.test(request.url()) && request.method() === 'POST') {
      for (const { blobId } of (request.postDataJSON() as { blobs: { blobId: string }[] }).blobs) blobIds.add(blobId);
    }
  });
  await new SignupFlow(page).createAccount(DATA_DIR, email, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Field photos ${Date.now().toString(36)}`, { storage: 'Cloud storage', privacy: 'Private' });

  await room.pickFiles([
    { name: 'summit.png', mimeType: 'image/png', buffer: landscapePng(900, 600) },
    { name: 'ridge.png', mimeType: 'image/png', buffer: landscapePng(400, 700) },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Camp at 3,100 m. Water at the col.') },
    { name: 'route.pdf', mimeType: 'application/pdf', buffer: routeSheetPdf() },
    { name: 'torn.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n') },
  ]);
  await room.confirmUpload();
  await expect(page.getByTestId('pending-upload')).toHaveCount(0, { timeout: 60_000 });

  // The list: the images show their thumbnail (decoded), the text file its icon.
  const summitThumb = room.row('summit.png').locator('img[data-thumbnail]');
  await expect(summitThumb).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => summitThumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
  await expect(room.row('ridge.png').locator('img[data-thumbnail]')).toBeVisible();
  await expect(room.row('notes.txt').locator('img[data-thumbnail]')).toHaveCount(0);
  // R79a: a PDF shows its first page (A4 portrait: 256 px high); one that cannot be read, its icon.
  const routeThumb = room.row('route.pdf').locator('img[data-thumbnail]');
  await expect(routeThumb).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => routeThumb.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([181, 256]);
  await expect(room.row('torn.pdf').locator('svg[data-pdf-icon]')).toBeVisible();
  await expect(room.row('torn.pdf').locator('img[data-thumbnail]')).toHaveCount(0);
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: `${SCREENS}/${width}-list-thumbnails.png` });

  // The grid view: tiles with the same thumbnails, reached and moved through by keyboard.
  await page.getByRole('button', { name: 'Grid view' }).click();
  const grid = page.getByRole('list', { name: 'Files and folders' });
  await expect(grid.getByRole('group', { name: 'summit.png' }).locator('img[data-thumbnail]')).toBeVisible();
  await expect(grid.getByRole('group', { name: 'notes.txt' })).toBeVisible();
  await expect(grid.getByRole('group', { name: 'route.pdf' }).locator('img[data-thumbnail]')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Grid view' })).toHaveAttribute('aria-pressed', 'true');
  const tiles = grid.getByRole('group');
  await tiles.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(tiles.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(tiles.last()).toBeFocused();
  await page.keyboard.press(' ');
  await expect(tiles.last().getByRole('checkbox')).toBeChecked();
  await page.screenshot({ path: `${SCREENS}/${width}-grid.png` });

  // Remembered on this device, thumbnails from IndexedDB after a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Grid view' })).toHaveAttribute('aria-pressed', 'true', { timeout: 30_000 });
  await expect(grid.getByRole('group', { name: 'ridge.png' }).locator('img[data-thumbnail]')).toBeVisible();
  await page.getByRole('button', { name: 'List view' }).click();
  await expect(room.row('summit.png').locator('img[data-thumbnail]')).toBeVisible();

  // What the server stores: ciphertext only, no image in clear (WebP, JPEG or PNG).
  const stored = [...blobIds].flatMap((blobId) => filesUnder(join(DATA_DIR, 'blobs', blobId))).map((path) => readFileSync(path));
  expect(stored.length).toBeGreaterThanOrEqual(8);
  for (const bytes of stored) {
    expect(bytes.includes(Buffer.from('WEBPVP8'))).toBe(false);
    // Signatures long enough that ciphertext never holds them by chance (a 3-byte JPEG marker
    // turns up in a few MB of random bytes about once in twenty runs); a clear thumbnail or file
    // would also start with its own.
    expect(bytes.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(false);
    expect(bytes.includes(Buffer.from('JFIF'))).toBe(false);
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false);
    expect(bytes.includes(Buffer.from('%PDF-'))).toBe(false);
  }
});
