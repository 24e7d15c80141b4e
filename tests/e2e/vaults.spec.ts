import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openVaultOnSecondDevice } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom, type UploadFile } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Text files whose names and contents carry unique marks, to scan the server's disk for. */
function markedFile(mark: string, name: string, size = 0): UploadFile {
  const text = `${mark} field notes. `.repeat(Math.max(1, Math.ceil(size / 30)));
  return { name, mimeType: 'text/plain', buffer: Buffer.from(text) };
}

test('a private cloud vault: create, upload files and a folder, resolve a duplicate, rename, hide, restore, and read it on a second device', async ({
  page,
  browser,
  shoot,
}, testInfo) => {
  test.setTimeout(180_000);
  const mark = `MARK${Date.now().toString(36)}${testInfo.project.name}`;
  const email = uniqueEmail(testInfo, 'vaults');
  const vaultName = `Expedition ${mark}`;
  await new SignupFlow(page).createAccount(DATA_DIR, email, STRONG_PASSWORD);
  const room = new VaultRoom(page);

  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  await expect(page.getByText(vaultName).filter({ visible: true }).first()).toBeVisible();
  await room.createFolder(`Receipts ${mark}`);

  // Two files, one of them larger than a chunk (4 MiB) so it travels in several chunks.
  const small = markedFile(mark, `notes-${mark}.txt`);
  const large = markedFile(mark, `log-${mark}.txt`, 5 * 1024 * 1024);
  await room.pickFiles([small, large]);
  await room.confirmUpload();
  await expect(room.row(small.name)).toBeVisible();
  await expect(room.row(large.name)).toBeVisible({ timeout: 60_000 });
  await shoot('vault-room');
  expect((await room.download(large.name)).equals(large.buffer)).toBe(true);

  // A whole folder: its tree is kept, .DS_Store and dot entries are skipped.
  const picked = join(mkdtempSync(join(tmpdir(), 'cairn-folder-')), `Survey ${mark}`);
  mkdirSync(join(picked, 'Maps'), { recursive: true });
  writeFileSync(join(picked, 'index.txt'), `${mark} index`);
  writeFileSync(join(picked, 'Maps', 'ridge.txt'), `${mark} ridge`);
  writeFileSync(join(picked, '.DS_Store'), 'finder');
  writeFileSync(join(picked, '.secret'), 'dot file');
  await room.pickFolder(picked);
  await room.confirmUpload();
  await room.row(`Survey ${mark}`).getByText(`Survey ${mark}`, { exact: true }).click();
  await expect(room.row('index.txt')).toBeVisible({ timeout: 30_000 });
  await expect(room.row('Maps')).toBeVisible();
  await expect(room.row('.DS_Store')).toHaveCount(0);
  await expect(room.row('.secret')).toHaveCount(0);
  await room.row('Maps').getByText('Maps', { exact: true }).click();
  await expect(room.row('ridge.txt')).toBeVisible({ timeout: 30_000 });
  expect((await room.download('ridge.txt')).toString()).toBe(`${mark} ridge`);
  await page.getByRole('button', { name: 'Back to vaults' }).or(page.getByRole('link', { name: 'Back to vaults' })).first().click();
  await page.getByText(vaultName).filter({ visible: true }).first().click();
  await expect(room.row(small.name)).toBeVisible();

  // The same name again: Replace adds a version, Keep both adds ' copy'.
  const second = { ...small, buffer: Buffer.from(`${mark} the second version`) };
  await room.pickFiles([second]);
  // One step: the upload dialog asks about the duplicate too (issue 26).
  const duplicates = page.getByRole('dialog', { name: 'Upload 1 file' }).getByRole('region', { name: 'This file already exists' });
  await duplicates.getByText('Replace', { exact: true }).click();
  await room.confirmUpload();
  // Replace kept one row (a version, not a second file) whose latest content is the new one.
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 30_000 });
  await expect(room.row(small.name)).toHaveCount(1);
  if (testInfo.project.name === 'desktop') {
    await expect(room.row(small.name).getByRole('cell').filter({ hasText: /^2$/ })).toBeVisible({ timeout: 30_000 });
  }
  await expect.poll(async () => (await room.download(small.name)).toString(), { timeout: 30_000 }).toBe(second.buffer.toString());

  // Rename, hide and restore.
  await room.rowAction(small.name, 'Rename');
  const renamed = `diary-${mark}.txt`;
  await page.getByRole('dialog').getByRole('textbox').fill(renamed);
  await page.getByRole('dialog').getByRole('button', { name: /Rename|Save/ }).click();
  await expect(room.row(renamed)).toBeVisible();
  await room.rowAction(renamed, 'Hide');
  await page.getByRole('dialog').getByRole('button', { name: 'Hide' }).click();
  await expect(room.row(renamed)).toBeHidden();
  await room.openHiddenFiles();
  await expect(room.row(renamed)).toBeVisible();
  await shoot('hidden-files');
  await room.rowAction(renamed, 'Restore');
  await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
  await expect(room.row(renamed)).toBeHidden();
  await page.goBack();
  await expect(room.row(renamed)).toBeVisible();

  // A second device: a fresh browser profile, same e-mail and password.
  const { context: other, page: otherPage } = await openVaultOnSecondDevice(browser, page, email, STRONG_PASSWORD, vaultName);
  const otherRoom = new VaultRoom(otherPage);
  await expect(otherRoom.row(large.name)).toBeVisible({ timeout: 30_000 });
  await expect(otherRoom.row(`Receipts ${mark}`)).toBeVisible();
  await expect(otherRoom.row(renamed)).toBeVisible();
  expect((await otherRoom.download(large.name)).equals(large.buffer)).toBe(true);
  expect((await otherRoom.download(renamed)).toString()).toBe(second.buffer.toString());
  await other.close();

  // The server's disk holds no private name and no byte of content in clear.
  // The server is shared with the other worker's tests: a file listed may be gone (a relay bundle
  // removed once posted) before it is read, and a file gone holds nothing.
  for (const file of filesUnder(DATA_DIR)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    expect(bytes.includes(mark), `${file} contains the mark in clear`).toBe(false);
  }
});

test('a folder of more than 40 files is one list: the range on screen, page jumps, keyboard, select-all and a shift range beyond the rendered rows', async ({ page, shoot }, testInfo) => {
  test.setTimeout(240_000);
  const isPhone = testInfo.project.name === 'phone';
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'list'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault('Survey scans', { storage: 'Cloud storage', privacy: 'Private' });
  await room.createFolder('Scans');
  await room.openFolder('Scans');

  // Three pages of 40: rows 1-40, 41-80 and 81-85.
  const files = Array.from({ length: 85 }, (_, i) => ({ name: `scan ${i + 1}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`scan ${i + 1}`) }));
  await room.pickFiles(files);
  await room.confirmUpload();
  await expect(room.summary).toHaveText('85 items', { timeout: 120_000 });
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 60_000 });
  // The count includes rows still uploading (issue 26), and the list renders only the rows in
  // view: a row is selectable once its file is in, which the sync status says for all of them.
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('pending-upload')).toHaveCount(0);

  // One list in numeric-aware name order, of which only the rows on screen (and a few more) exist.
  await expect(page.getByRole('table')).toHaveAttribute('aria-rowcount', '86');
  await expect(room.row('scan 10.txt')).toHaveAttribute('aria-rowindex', '11');
  await expect(room.range).toHaveText(/^1–\d+ of 85$/);
  await expect(room.row('scan 60.txt')).toHaveCount(0);
  await shoot('long-folder', { fullPage: false });

  // Page 2 starts at row 41, at the top of the list.
  if (isPhone) await room.goToPage('Next page');
  else await room.goToPage(2);
  await expect(room.range).toHaveText(/^41–\d+ of 85$/);
  await expect(room.row('scan 41.txt')).toBeInViewport();
  await expect(room.row('scan 1.txt')).toHaveCount(0);
  if (!isPhone) await expect(room.pager.getByRole('button', { name: '2', exact: true })).toHaveAttribute('aria-current', 'page');
  await room.goToPage('Previous page');
  await expect(room.range).toHaveText(/^1–\d+ of 85$/);

  // A click, a jump to the last page, a shift-click: the range covers rows never rendered.
  await room.checkbox('scan 3.txt').click();
  await expect(room.summary).toHaveText('1 selected');
  await room.goToPage('Last page');
  await expect(room.range).toHaveText(/^\d+–85 of 85$/);
  await expect(room.row('scan 3.txt')).toHaveCount(0);
  await room.checkbox('scan 84.txt').click({ modifiers: ['Shift'] });
  await expect(room.summary).toHaveText('82 selected');
  await expect(room.checkbox('scan 85.txt')).not.toBeChecked();
  await expect(room.checkbox('scan 84.txt')).toBeChecked();
  await shoot('long-folder-range-selected', { fullPage: false });
  await room.goToPage(isPhone ? 'Previous page' : 2);
  await expect(room.checkbox('scan 41.txt')).toBeChecked();
  await room.goToPage('First page');
  await expect(room.range).toHaveText(/^1–\d+ of 85$/);
  await expect(room.checkbox('scan 2.txt')).not.toBeChecked();
  await expect(room.checkbox('scan 3.txt')).toBeChecked();

  // Select-all takes every row of the folder, rendered or not, and says so.
  await page.getByRole('checkbox', { name: 'Select all' }).click();
  await expect(room.summary).toHaveText('All 85 selected');
  await room.goToPage('Last page');
  await expect(room.checkbox('scan 85.txt')).toBeChecked();
  await page.getByRole('checkbox', { name: 'Select all' }).click();
  await expect(room.summary).toHaveText('85 items');

  // Sorting reorders the whole list, not the rows on screen.
  await room.goToPage('First page');
  const byName = page.getByRole('columnheader', { name: /^Name/ }).getByRole('button');
  await byName.click();
  await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(room.row('scan 85.txt')).toHaveAttribute('aria-rowindex', '2');
  await expect(room.row('scan 1.txt')).toHaveCount(0);
  await byName.click();
  await expect(room.row('scan 1.txt')).toHaveAttribute('aria-rowindex', '2');

  // The keyboard reaches every row: End and Home go to rows that were not rendered, Space selects.
  await room.row('scan 1.txt').focus();
  await page.keyboard.press('End');
  await expect(room.row('scan 85.txt')).toBeFocused();
  await expect(room.row('scan 85.txt')).toBeInViewport();
  await page.keyboard.press('Space');
  await expect(room.summary).toHaveText('1 selected');
  await page.keyboard.press('Home');
  await expect(room.row('scan 1.txt')).toBeFocused();
  await expect(room.range).toHaveText(/^1–\d+ of 85$/);
  await page.keyboard.press('PageDown');
  await expect(room.row('scan 41.txt')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(room.row('scan 42.txt')).toBeFocused();
  // The list is one tab stop: Tab goes on into the focused row's own controls.
  await page.keyboard.press('Tab');
  await expect(room.checkbox('scan 42.txt')).toBeFocused();

  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot('long-folder-dark', { fullPage: false });
  await page.emulateMedia({ colorScheme: 'light' });

  // R7, R14: files picked offline are rows of the list at once, in their places among the 85,
  // marked with their upload state; they are not items yet (no checkbox, not counted, not in select-all).
  const selectAll = page.getByRole('checkbox', { name: 'Select all' });
  await selectAll.click();
  await expect(room.summary).toHaveText('All 85 selected');
  await selectAll.click();
  await expect(room.summary).toHaveText('85 items');
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(room.range).toHaveText(/^1–\d+ of 85$/);
  await page.context().setOffline(true);
  const late = ['scan 1a.txt', 'scan 50a.txt', 'scan 99.txt'];
  await room.pickFiles(late.map((name) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(name) })));
  await room.confirmUpload();
  await expect(page.getByRole('table')).toHaveAttribute('aria-rowcount', '89');
  const early = room.row('scan 1a.txt');
  await expect(early).toHaveAttribute('aria-rowindex', '3');
  await expect(early).toHaveAttribute('data-testid', 'pending-upload');
  await expect(early.getByText('Waiting to upload')).toBeVisible();
  // The name reads in full beside its mark (under it at 375 px), the mark stays in its cell, and
  // the row keeps the height the list places its rows by.
  const layout = await early.evaluate((row) => {
    const [, nameCell, , sizeCell] = [...row.querySelectorAll('td')] as HTMLElement[] as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    const name = nameCell.querySelector<HTMLElement>('[data-truncate]')!;
    const mark = [...nameCell.querySelectorAll('*')].find((el) => el.textContent === 'Waiting to upload' && el.children.length === 0)!;
    return {
      nameCut: name.scrollWidth > name.clientWidth,
      markEnd: mark.getBoundingClientRect().right,
      // Below 576 px the Size column gives way (issue 26): the mark must then end inside the row.
      sizeStart: sizeCell.getClientRects().length > 0 ? sizeCell.getBoundingClientRect().left : row.getBoundingClientRect().right,
      rowHeight: row.getBoundingClientRect().height,
    };
  });
  expect(layout.nameCut).toBe(false);
  expect(layout.markEnd).toBeLessThanOrEqual(layout.sizeStart);
  expect(layout.rowHeight).toBeCloseTo(52, 0);
  await expect(room.checkbox('scan 1a.txt')).toHaveCount(0);
  await expect(room.row('scan 2.txt')).toHaveAttribute('aria-rowindex', '4');
  // The count is of the rows shown, those waiting to upload included (issue 26).
  await expect(room.summary).toHaveText('88 items');
  await expect(room.range).toHaveText(/^1–\d+ of 88$/);
  await shoot('long-folder-pending-uploads', { fullPage: false });
  // Rows far down the list are rows like the others: reached by the keyboard, in their places.
  await early.focus();
  await page.keyboard.press('End');
  await expect(room.row('scan 99.txt')).toBeFocused();
  await expect(room.row('scan 99.txt')).toHaveAttribute('aria-rowindex', '89');
  await expect(room.row('scan 99.txt').getByText('Waiting to upload')).toBeVisible();
  await page.keyboard.press('Space');
  await expect(room.summary).toHaveText('88 items');
  await room.goToPage(isPhone ? 'Previous page' : 2);
  await expect(room.row('scan 50a.txt')).toHaveAttribute('aria-rowindex', '53');
  await expect(room.row('scan 50a.txt')).toHaveAttribute('data-testid', 'pending-upload');
  await selectAll.click();
  await expect(room.summary).toHaveText('All 85 selected');
  await selectAll.click();

  // Back online they upload and become the files themselves, in the same places.
  await page.context().setOffline(false);
  await expect(room.summary).toHaveText('88 items', { timeout: 60_000 });
  await expect(page.getByTestId('pending-upload')).toHaveCount(0);
  await expect(room.row('scan 50a.txt')).toHaveAttribute('aria-rowindex', '53');
  await expect(room.checkbox('scan 50a.txt')).toBeVisible();
});
