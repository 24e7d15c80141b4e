import { gradientPng } from '../fixtures/gradientPng';
import { SignupFlow } from './pages/SignupFlow';
import { pendingMark, VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

// Issue 26, docs/SYNC_SPEC.md R79b (R79, R53): a public vault's thumbnails are clear images; the
// signed-out viewer shows them as the members' list does, fetched through the public area.
test('[R79b][R53] signed out, the public viewer shows the thumbnail of an uploaded PNG in the list and the gallery', async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'public-thumbs'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  const vaultName = `Open atlas ${Date.now().toString(36)}`;
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Public' });
  const vaultId = /\/vaults\/active\/([A-Za-z0-9_-]+)\/assets$/.exec(page.url())![1]!;
  await room.pickFiles([
    { name: 'summit.png', mimeType: 'image/png', buffer: gradientPng(600, 400) },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Summit at noon.') },
  ]);
  await room.confirmUpload();
  await expect(room.row('summit.png').locator('img[data-thumbnail]')).toBeVisible({ timeout: 60_000 });
  for (const name of ['summit.png', 'notes.txt']) await expect(pendingMark(room.row(name))).toHaveCount(0, { timeout: 30_000 });

  // A fresh browser, signed out.
  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined, baseURL: new URL(page.url()).origin });
  const guest = await other.newPage();
  const thumbnailRequests: string[] = [];
  guest.on('request', (request) => {
    if (request.url().includes('/blobs/')) thumbnailRequests.push(new URL(request.url()).pathname);
  });
  await guest.goto(`/public/vaults/active/${vaultId}/assets`);
  await expect(guest.getByRole('heading', { level: 1, name: vaultName })).toBeVisible({ timeout: 30_000 });
  const table = guest.getByRole('table', { name: 'Files and folders' });
  const summitRow = table.getByRole('row').filter({ hasText: 'summit.png' });
  const thumb = summitRow.locator('img[data-thumbnail]');
  await expect(thumb).toBeVisible({ timeout: 30_000 });
  // Decoded by the browser: the uploader's 256 px thumbnail, not the 600 px image.
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
  expect(await thumb.getAttribute('src')).toMatch(/^blob:/);
  await expect(table.getByRole('row').filter({ hasText: 'notes.txt' }).locator('img')).toHaveCount(0);
  // Through the public area only (no session in this browser).
  expect(thumbnailRequests.length).toBeGreaterThan(0);
  for (const path of thumbnailRequests) expect(path).toMatch(new RegExp(`^/api/public/vaults/${vaultId}/blobs/[A-Za-z0-9_-]+/chunks/0$`));
  await guest.screenshot({ path: `.tmp/screenshots/${project}-public-thumbnails-list.png`, fullPage: true });

  // The gallery: the same thumbnail, without fetching the whole image.
  await guest.getByText('Gallery', { exact: true }).click();
  const tile = guest.getByRole('button', { name: 'Open summit.png' });
  await expect(tile.locator('img[data-thumbnail]')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => tile.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
  await guest.screenshot({ path: `.tmp/screenshots/${project}-public-thumbnails-gallery.png`, fullPage: true });
  await other.close();
});
