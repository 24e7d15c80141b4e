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

  for (const round of ['first', 'second']) {
    await page.getByRole('checkbox', { name: 'Select all' }).click();
    await expect(page.getByText('All 40 selected')).toBeVisible();
    const downloading = page.waitForEvent('download');
    const started = Date.now();
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const notice = page.getByText(/^Preparing your file for download\. Large files may take a while\./);
    await expect(notice).toBeVisible();
    const shownAfter = Date.now() - started;
    process.stdout.write(`[zip ${round}] notice after ${shownAfter} ms\n`);
    await expect(page.getByText(/\b\d+ of 40 files\b/)).toBeVisible();
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
