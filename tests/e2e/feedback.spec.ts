/**
 * Feedback for every action (issue 26): each move, rename, hide, restore and delete says what it
 * did in a snackbar, with Undo where it can be undone; a zip download says at once that it is
 * being prepared, with its progress; a long chat message is clamped with 'more'.
 */
import { readFileSync } from 'node:fs';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';
import type { Page } from '@playwright/test';

function snackbar(page: Page, text: string | RegExp) {
  return page.getByRole('alert').filter({ hasText: text });
}

test('zip download: the preparing notice shows at once, with the files done out of all', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const mark = `Z${Date.now().toString(36)}`;
  const vaultName = `Zip kit ${mark}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'zipnotice'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  const files = Array.from({ length: 40 }, (_, i) => ({
    name: `log-${String(i).padStart(2, '0')}-${mark}.txt`,
    mimeType: 'text/plain',
    buffer: Buffer.from(`${mark} entry ${i} `.repeat(200)),
  }));
  await room.pickFiles(files);
  await room.confirmUpload();
  await expect(page.getByText('40 items')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 120_000 });
  // The count includes rows still uploading (issue 26), and the list renders only the rows in
  // view: a row is selectable once its file is in, which the upload box counts for all of them.
  // The box closes 3 s after it says so: on a busy machine the test may see it closed instead.
  await expect(async () => {
    const isAllIn = (await page.getByText('40 of 40 files', { exact: true }).count()) > 0 || (await page.getByText(/^\d+ of 40 files$/).count()) === 0;
    expect(isAllIn).toBe(true);
  }).toPass({ timeout: 120_000, intervals: [250] });
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 60_000 });

  for (const round of ['first', 'second']) {
    await page.getByRole('checkbox', { name: 'Select all' }).click();
    await expect(page.getByText('All 40 selected')).toBeVisible();
    const downloading = page.waitForEvent('download');
    // The preparing notice's own progress ('8 of 40 files, 19%'), not the upload box's count. A
    // second download of the same files may finish within a second, notice and all: so the page
    // is watched for the progress from before the click, on every frame, rather than
    // looked at afterwards (which failed once in CI when the notice had already gone).
    const sawProgress = page.waitForFunction(() => /\b\d+ of 40 files, \d+%/.test(document.body.innerText), undefined, { polling: 'raf', timeout: 30_000 });
    const started = Date.now();
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const notice = page.getByText(/^Preparing your file for download\. Large files may take a while\./);
    await expect(notice).toBeVisible();
    const shownAfter = Date.now() - started;
    process.stdout.write(`[zip ${round}] notice after ${shownAfter} ms\n`);
    await sawProgress;
    const download = await downloading;
    const zip = readFileSync((await download.path())!);
    const doneAfter = Date.now() - started;
    expect(zip.includes(files[39]!.buffer)).toBe(true);
    await expect(notice).toBeHidden();
    console.log(`[zip ${round}] notice after ${shownAfter} ms, saved after ${doneAfter} ms (${testInfo.project.name})`);
    await page.getByRole('checkbox', { name: 'Select all' }).click();
    await expect(page.getByText('40 items')).toBeVisible();
  }
});

test('every move, rename, hide, restore and delete says so, with Undo where it can be undone', async ({ page, shoot }, testInfo) => {
  test.setTimeout(150_000);
  const mark = Date.now().toString(36);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'snackbars'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Expedition ${mark}`, { storage: 'Cloud storage', privacy: 'Private' });
  const folder = `Maps ${mark}`;
  await room.createFolder(folder);
  const a = { name: `a-${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} first`) };
  const b = { name: `b-${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} second`) };
  await room.pickFiles([a, b]);
  await room.confirmUpload();
  await expect(page.getByText('3 items')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 60_000 });
  await expect(page.getByTestId('pending-upload')).toHaveCount(0, { timeout: 60_000 });

  // Move, then Undo: the file is back where it was.
  await room.rowAction(a.name, 'Move');
  await page.getByRole('dialog').getByRole('button', { name: `Open ${folder}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Move here' }).click();
  await expect(room.row(a.name)).toBeHidden();
  await shoot('snackbar-undo');
  await snackbar(page, 'File moved').getByRole('button', { name: 'Undo' }).click();
  await expect(snackbar(page, 'File moved back')).toBeVisible();
  await expect(room.row(a.name)).toBeVisible();

  // Rename, then Undo: the old name is back.
  const renamed = `c-${mark}.txt`;
  await room.rowAction(b.name, 'Rename');
  await page.getByRole('dialog').getByRole('textbox').fill(renamed);
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(room.row(renamed)).toBeVisible();
  await snackbar(page, 'File renamed').getByRole('button', { name: 'Undo' }).click();
  await expect(snackbar(page, 'Name restored')).toBeVisible();
  await expect(room.row(b.name)).toBeVisible();
  await expect(room.row(renamed)).toBeHidden();

  // Hide a folder, then Undo: it is back in the list.
  await room.rowAction(folder, 'Hide');
  await page.getByRole('dialog').getByRole('button', { name: 'Hide' }).click();
  await expect(room.row(folder)).toBeHidden();
  await snackbar(page, 'Folder hidden').getByRole('button', { name: 'Undo' }).click();
  await expect(snackbar(page, 'Folder restored')).toBeVisible();
  await expect(room.row(folder)).toBeVisible();

  // A batch says how many.
  await room.checkbox(a.name).click();
  await room.checkbox(b.name).click();
  await page.getByRole('button', { name: 'Hide', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Hide' }).click();
  await expect(snackbar(page, '2 items hidden')).toBeVisible();
  await expect(room.row(a.name)).toBeHidden();

  // In hidden files: restore, then Undo hides it again.
  await room.openHiddenFiles();
  await room.rowAction(a.name, 'Restore');
  await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
  await expect(room.row(a.name)).toBeHidden();
  await snackbar(page, 'File restored').getByRole('button', { name: 'Undo' }).click();
  await expect(snackbar(page, 'File hidden')).toBeVisible();
  await expect(room.row(a.name)).toBeVisible();

  // Delete for good keeps its confirmation and has no Undo.
  await room.rowAction(b.name, 'Delete');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(snackbar(page, 'File deleted')).toBeVisible();
  await expect(snackbar(page, 'File deleted').getByRole('button', { name: 'Undo' })).toHaveCount(0);
  await expect(room.row(b.name)).toBeHidden();
});

test('a long chat message shows 8 lines with more, and less once open', async ({ page, shoot }, testInfo) => {
  test.setTimeout(120_000);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'clamp'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Chatter ${Date.now().toString(36)}`, { storage: 'Cloud storage', privacy: 'Private' });
  await page.getByRole('tab', { name: 'Chat' }).click();
  const long = 'Field report: the ridge path is washed out past the second cairn. '.repeat(45).trim();
  await page.getByRole('textbox', { name: 'Message' }).fill(long);
  await page.getByRole('button', { name: 'Send' }).click();
  const text = page.getByTestId('memo-text').filter({ hasText: 'Field report' });
  await expect(text).toBeVisible();
  const clampedHeight = (await text.boundingBox())!.height;
  const lineHeight = await text.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  expect(Math.round(clampedHeight / lineHeight)).toBe(8);
  await shoot('chat-clamp', { fullPage: false });
  await page.getByRole('button', { name: 'more' }).click();
  await expect(page.getByRole('button', { name: 'less' })).toHaveAttribute('aria-expanded', 'true');
  expect((await text.boundingBox())!.height).toBeGreaterThan(clampedHeight * 2);
  await page.getByRole('button', { name: 'less' }).click();
  await expect(page.getByRole('button', { name: 'more' })).toBeVisible();
  expect((await text.boundingBox())!.height).toBe(clampedHeight);
});

test('the recovery phrase stands in an even grid: 4 columns on a desktop, 2 on a phone', async ({ page, shoot }, testInfo) => {
  await new SignupFlow(page).fillForm(uniqueEmail(testInfo, 'phrasegrid'), STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Next' }).click();
  const tiles = page.getByTestId('recovery-phrase').getByRole('listitem');
  await expect(tiles).toHaveCount(12);
  const boxes = await Promise.all((await tiles.all()).map(async (tile) => (await tile.boundingBox())!));
  // Every tile has the same height (no word wraps) and the rows are full.
  expect(new Set(boxes.map((b) => Math.round(b.height))).size).toBe(1);
  const columns = new Set(boxes.map((b) => Math.round(b.x))).size;
  expect(columns).toBe(testInfo.project.name === 'phone' ? 2 : 4);
  expect(new Set(boxes.map((b) => Math.round(b.width))).size).toBe(1);
  // No word is cut: the longest BIP39 words have 8 letters.
  for (const tile of await tiles.all()) expect(await tile.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await page.evaluate(() => {
    for (const word of document.querySelectorAll('[data-testid="recovery-phrase"] li > span:last-child')) word.textContent = 'together';
  });
  for (const tile of await tiles.all()) expect(await tile.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await shoot('recovery-phrase');
});

test('a duplicate is asked about in the upload dialog itself, and a confirmed upload survives leaving the page', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const mark = Date.now().toString(36);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'dupstep'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Uploads ${mark}`, { storage: 'Cloud storage', privacy: 'Private' });
  const first = { name: `ridge-${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} first`) };
  await room.pickFiles([first]);
  await room.confirmUpload();
  await expect(room.row(first.name)).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 60_000 });

  // The same name again: one dialog holds the question and the confirmation.
  const again = { ...first, buffer: Buffer.from(`${mark} second`) };
  const big = { name: `big-${mark}.bin`, mimeType: 'application/octet-stream', buffer: Buffer.alloc(6 * 1024 * 1024, 7) };
  await room.pickFiles([again, big]);
  const dialog = page.getByRole('dialog', { name: 'Upload 2 files' });
  await expect(dialog.getByRole('region', { name: 'This file already exists' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await expect(dialog.getByText(/^Available: /)).toBeVisible();
  await dialog.getByText('Keep both', { exact: true }).click();
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  // Leave at once, for another tab of the room and then the vault list.
  await page.getByRole('tab', { name: 'Chat' }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await page.goto('/vaults/active');
  await page.getByText(`Uploads ${mark}`).filter({ visible: true }).first().click();
  await expect(room.row(`ridge-${mark} copy.txt`)).toBeVisible({ timeout: 60_000 });
  await expect(room.row(big.name)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 60_000 });
  expect((await room.download(`ridge-${mark} copy.txt`)).toString()).toBe(again.buffer.toString());
  expect((await room.download(big.name)).equals(big.buffer)).toBe(true);
});

test('a note previews tables and task lists, with raw HTML in a cell left inert', async ({ page, shoot }, testInfo) => {
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'gfm'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Notes ${Date.now().toString(36)}`, { storage: 'Cloud storage', privacy: 'Private' });
  await page.getByRole('button', { name: 'Add an asset' }).click();
  await page.getByRole('menuitem', { name: 'Create note' }).click();
  await page.getByRole('textbox', { name: 'Text' }).fill(
    [
      '# Gear',
      '',
      '| Item | Weight |',
      '| --- | ---: |',
      '| Tent | 2.1 kg |',
      '| <img src=x onerror=alert(1)> | ~~3 kg~~ |',
      '',
      '- [x] stove',
      '- [ ] map',
    ].join('\n'),
  );
  if (testInfo.project.name === 'phone') await page.getByText('Preview', { exact: true }).click();
  const preview = page.getByTestId('markdown-preview');
  await expect(preview.getByRole('table')).toBeVisible();
  await expect(preview.getByRole('columnheader', { name: 'Weight' })).toBeVisible();
  await expect(preview.getByRole('cell', { name: 'Tent' })).toBeVisible();
  await expect(preview.getByRole('checkbox')).toHaveCount(2);
  await expect(preview.getByRole('checkbox').first()).toBeChecked();
  await expect(preview.getByRole('checkbox').first()).toBeDisabled();
  await expect(preview.locator('script, img, [onerror]')).toHaveCount(0);
  await expect(preview.locator('del')).toHaveText('3 kg');
  await shoot('note-gfm');
});
