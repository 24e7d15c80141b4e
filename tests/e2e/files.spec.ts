import { type Download } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom, type UploadFile } from './pages/VaultRoom';
import { CHUNK_SIZE } from '../../src/protocol/vaults';
import { DATA_DIR, STRONG_PASSWORD, expect, tamperChunk, test, uniqueEmail } from './fixtures';

/** The start of CHUNK_TAMPERED_MESSAGE (src/sync/downloadFile.ts). */
const TAMPERED_TEXT = /This file's content does not match what its uploader signed/;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Random bytes over `chunks` chunks, so a chunk out of order or missing changes the hash. */
function randomFile(name: string, chunks: number): UploadFile {
  return { name, mimeType: 'application/octet-stream', buffer: randomBytes((chunks - 1) * CHUNK_SIZE + 123_457) };
}

test('files: batch download as a zip, drag a file onto a folder, edit description and tags', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const mark = `ZIP${Date.now().toString(36)}`;
  const vaultName = `Field kit ${mark}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'files'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  const folder = `Maps ${mark}`;
  await room.createFolder(folder);
  const first = { name: `north-${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} north ridge bearings`) };
  const second = { name: `south-${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} south col waypoints`) };
  await room.pickFiles([first, second]);
  await room.confirmUpload();
  await expect(room.row(first.name)).toBeVisible();
  await expect(room.row(second.name)).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 30_000 });

  // Two files selected: one archive named after the vault; client-zip stores entries uncompressed.
  await page.getByRole('checkbox', { name: `Select ${first.name}` }).click();
  await page.getByRole('checkbox', { name: `Select ${second.name}` }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${vaultName}.zip`);
  const zip = readFileSync((await download.path())!);
  expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
  for (const file of [first, second]) {
    expect(zip.includes(Buffer.from(file.name)), `${file.name} entry`).toBe(true);
    expect(zip.includes(file.buffer), `${file.name} bytes`).toBe(true);
  }
  await page.getByRole('checkbox', { name: `Select ${first.name}` }).click();
  await page.getByRole('checkbox', { name: `Select ${second.name}` }).click();

  // Drag a file row onto the folder row: it moves there.
  await room.row(first.name).dragTo(room.row(folder));
  await expect(page.getByText('File moved')).toBeVisible();
  await expect(room.row(first.name)).toBeHidden();
  await room.row(folder).getByText(folder, { exact: true }).click();
  await expect(room.row(first.name)).toBeVisible();
  await page.goBack();
  await expect(room.row(second.name)).toBeVisible();

  // Description and tags, from the vault menu.
  await room.openVaultMenu(vaultName, 'Description and tags');
  const drawer = page.getByRole('dialog', { name: 'Description and tags' });
  const save = drawer.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await drawer.getByRole('textbox', { name: 'Description' }).fill('x'.repeat(301));
  await expect(drawer.getByText('-1 characters remaining')).toBeVisible();
  await expect(save).toBeDisabled();
  await drawer.getByRole('textbox', { name: 'Description' }).fill('Maps for the ridge');
  await drawer.getByRole('textbox', { name: 'Tags' }).pressSequentially('alpine,');
  await expect(drawer.getByText('alpine', { exact: true })).toBeVisible();
  await save.click();
  await expect(drawer).toBeHidden();
  await room.openVaultMenu(vaultName, 'Description and tags');
  await expect(drawer.getByRole('textbox', { name: 'Description' })).toHaveValue('Maps for the ridge');
  await expect(drawer.getByText('alpine', { exact: true })).toBeVisible();
});

test('downloads stream to disk through the service worker byte for byte, and a tampered chunk fails the download', async ({ page, shoot }, testInfo) => {
  test.setTimeout(180_000);
  const mark = `SW${Date.now().toString(36)}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'stream'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Stream ${mark}`, { storage: 'Cloud storage', privacy: 'Private' });
  const big = randomFile(`survey-${mark}.bin`, 3);
  const small = { name: `bearings ${mark} é.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} bearings`) };
  // Chunks fetched once are kept for offline use (and checked again on every read), so the file
  // tampered with below is one this browser never fetched.
  const victim = randomFile(`victim-${mark}.bin`, 2);
  await room.pickFiles([big, small, victim]);
  await room.confirmUpload();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 90_000 });
  await expect(room.row(big.name)).toBeVisible();

  // Under the service worker, the browser saves its stream: the URL is the stream's, not a blob:.
  await room.reloadUnderServiceWorker();
  const streamed = await room.startDownload(big.name);
  expect(streamed.url()).toMatch(/\/download-stream\/[A-Za-z0-9-]+$/);
  expect(await streamed.failure()).toBeNull();
  expect(sha256(readFileSync((await streamed.path())!))).toBe(sha256(big.buffer));
  // The service worker fetched the file's chunks itself (issue 25): the page only followed.
  const [serviceWorker] = page.context().serviceWorkers();
  const fetchedBySw = await serviceWorker!.evaluate(() => performance.getEntriesByType('resource').filter((entry) => /\/chunks\/\d+$/.test(entry.name)).length);
  expect(fetchedBySw).toBe(3);
  // A name outside ASCII comes through the RFC 5987 filename* intact.
  expect((await room.download(small.name)).equals(small.buffer)).toBe(true);

  // The zip streams too.
  await page.getByRole('checkbox', { name: `Select ${big.name}` }).click();
  await page.getByRole('checkbox', { name: `Select ${small.name}` }).click();
  const zipping = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const zipDownload = await zipping;
  expect(zipDownload.url()).toMatch(/\/download-stream\//);
  expect(await zipDownload.failure()).toBeNull();
  const zip = readFileSync((await zipDownload.path())!);
  expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
  expect(zip.includes(big.buffer), 'the large file inside the zip').toBe(true);
  expect(zip.includes(small.buffer), 'the small file inside the zip').toBe(true);
  await page.getByRole('checkbox', { name: `Select ${big.name}` }).click();
  await page.getByRole('checkbox', { name: `Select ${small.name}` }).click();

  // Cancel, from the app's notice and from the browser's download list, while chunks come slowly
  // (routing also turns the HTTP cache off): either way the browser's download fails, never
  // completes, and the app says it was cancelled.
  // The file was downloaded above, so its chunks are kept for offline use: forget them, so the
  // next downloads go to the network (slowed here).
  await page.evaluate(async () => {
    for (const name of await caches.keys()) if (name.startsWith('cairn-chunks-')) await caches.delete(name);
  });
  await page.context().route('**/api/vaults/*/blobs/*/chunks/*', async (route) => {
    // Long enough for the cancel to land while chunks are on their way, even on a busy machine.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    await route.continue().catch(() => undefined);
  });
  const fromApp = await room.startDownload(big.name);
  await shoot('download-progress');
  await page.getByRole('button', { name: 'Cancel download' }).click();
  await Promise.all([expect(page.getByText('Download cancelled.')).toBeVisible(), expect.poll(() => fromApp.failure()).not.toBeNull()]);
  // A notification stays while the pointer rests on it (Mantine pauses its timer on hover).
  await page.mouse.move(0, 0);
  await expect(page.getByText('Download cancelled.')).toBeHidden();
  const fromBrowser = await room.startDownload(big.name);
  await fromBrowser.cancel();
  expect(await fromBrowser.failure()).toBe('canceled');
  await expect(page.getByText('Download cancelled.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel download' })).toBeHidden();
  await page.context().unrouteAll({ behavior: 'ignoreErrors' });

  // The server now serves a changed last chunk: the first one is already on its way to disk when
  // it fails, and the browser marks the download failed (never complete); the page says why.
  tamperChunk(await room.blobIdOf(victim.name), 1);
  const tampered = await room.startDownload(victim.name);
  expect(tampered.url()).toMatch(/\/download-stream\//);
  await Promise.all([expect(page.getByText(TAMPERED_TEXT)).toBeVisible(), expect.poll(() => tampered.failure()).not.toBeNull()]);
  await shoot('download-tampered');
});

test('without a service worker, downloads fall back to a Blob: byte for byte, and a tampered chunk is refused', async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const mark = `NOSW${Date.now().toString(36)}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'nosw'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Fallback ${mark}`, { storage: 'Cloud storage', privacy: 'Private' });
  const big = randomFile(`ledger-${mark}.bin`, 3);
  const victim = randomFile(`victim-${mark}.bin`, 3);
  await room.pickFiles([big, victim]);
  await room.confirmUpload();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 90_000 });
  await expect(room.row(big.name)).toBeVisible();

  await page.reload();
  expect(await room.isServiceWorkerControlled()).toBe(false);
  const download = await room.startDownload(big.name);
  expect(download.url()).toMatch(/^blob:/);
  expect(sha256(readFileSync((await download.path())!))).toBe(sha256(big.buffer));

  // A changed chunk (of a file this browser never fetched: chunks are cached as immutable): the
  // Blob is never made, so nothing is saved at all.
  tamperChunk(await room.blobIdOf(victim.name), 2);
  const saved: Download[] = [];
  page.on('download', (d) => saved.push(d));
  await room.rowAction(victim.name, 'Download');
  await expect(page.getByText(TAMPERED_TEXT)).toBeVisible();
  expect(saved).toEqual([]);
  await context.close();
});
