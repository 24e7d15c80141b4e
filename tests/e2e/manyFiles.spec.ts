import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { configure, Uint8ArrayReader, Uint8ArrayWriter, ZipReader } from '@zip.js/zip.js';
import { openVaultOnSecondDevice } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom, type UploadFile } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

configure({ useWebWorkers: false });

const FILE_COUNT = 1_000;

// Issue 25: one pick of many small files is sent as groups of operations and bodies; every file
// must still arrive whole and verify on another device.
test('[issue 25] one pick of 1,000 small files into a private vault: all uploaded, and a second device has every one byte for byte', async ({ page, browser }, testInfo) => {
  test.setTimeout(600_000);
  const mark = `M${Date.now().toString(36)}`;
  const email = uniqueEmail(testInfo, 'many');
  await new SignupFlow(page).createAccount(DATA_DIR, email, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  const vaultName = `Field readings ${mark}`;
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  const files: UploadFile[] = Array.from({ length: FILE_COUNT }, (_, i) => ({
    name: `reading ${String(i).padStart(4, '0')}.bin`,
    mimeType: 'application/octet-stream',
    buffer: randomBytes(10_000),
  }));
  await room.pickFiles(files);
  await expect(page.getByRole('dialog', { name: 'Upload 1000 files' })).toBeVisible();
  await room.confirmUpload();
  await expect(room.uploadBox().getByText('Upload complete')).toBeVisible({ timeout: 300_000 });
  await expect(page.getByText('1,000 items')).toBeVisible({ timeout: 60_000 });

  // A second device: a fresh browser profile, same e-mail and password.
  const { context: other, page: otherPage } = await openVaultOnSecondDevice(browser, page, email, STRONG_PASSWORD, vaultName);
  await expect(otherPage.getByText('1,000 items')).toBeVisible({ timeout: 120_000 });

  // All of them, as one zip from that device: each entry checked against what was picked.
  await otherPage.getByRole('checkbox', { name: 'Select all' }).click();
  const zipping = otherPage.waitForEvent('download', { timeout: 60_000 });
  await otherPage.getByRole('button', { name: 'Download', exact: true }).click();
  const zipDownload = await zipping;
  expect(await zipDownload.failure()).toBeNull();
  const reader = new ZipReader(new Uint8ArrayReader(new Uint8Array(readFileSync((await zipDownload.path())!))));
  const entries = await reader.getEntries();
  const byName = new Map(files.map((file) => [file.name, file.buffer]));
  expect(entries.filter((entry) => !entry.directory)).toHaveLength(FILE_COUNT);
  for (const entry of entries) {
    if (entry.directory) continue;
    const expected = byName.get(entry.filename);
    expect(expected, `${entry.filename} was picked`).toBeDefined();
    const bytes = await entry.getData!(new Uint8ArrayWriter());
    expect(Buffer.from(bytes).equals(expected!), `${entry.filename} byte for byte`).toBe(true);
    byName.delete(entry.filename);
  }
  expect([...byName.keys()]).toEqual([]);
  await reader.close();
  await other.close();
});
