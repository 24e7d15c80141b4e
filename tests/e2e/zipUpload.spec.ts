import { createHash, randomBytes } from 'node:crypto';
import { makeZip } from '../fixtures/zipArchive';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test('upload zip & unpack: folders and byte-identical files, damaged entries reported by name', async ({ page, shoot }, testInfo) => {
  test.setTimeout(180_000);
  const mark = `Z${Date.now().toString(36)}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'zip'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Archive ${mark}`, { storage: 'Cloud storage', privacy: 'Public' });

  // Only .zip is accepted, whatever the picker was told.
  await room.pickZip({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an archive') });
  await expect(page.getByText('Only .zip files can be unpacked. "notes.txt" is not a .zip file.')).toBeVisible();

  // Several chunks (4 MiB each) of incompressible bytes, text, a stored entry, skipped metadata,
  // one damaged entry and one encrypted entry.
  const terrain = randomBytes(9 * 1024 * 1024);
  const index = Buffer.from(`${mark} survey index\n`.repeat(400));
  const ridge = Buffer.from(`${mark} ridge bearings`);
  const top = Buffer.from(`${mark} at the archive root`);
  const zip = makeZip([
    { name: 'Survey/' },
    { name: 'Survey/index.txt', data: index },
    { name: 'Survey/Maps/terrain.bin', data: terrain },
    { name: 'Survey/Maps/ridge.txt', data: ridge, isStored: true },
    { name: 'Survey/.DS_Store', data: Buffer.from('finder') },
    { name: '__MACOSX/Survey/._index.txt', data: Buffer.from('resource fork') },
    { name: 'Survey/broken.txt', data: Buffer.from('this entry is damaged '.repeat(50)), isCorrupt: true },
    { name: 'Survey/secret.txt', data: Buffer.from('sealed'), isEncrypted: true },
    { name: 'top.txt', data: top },
  ]);
  await room.pickZip({ name: `survey-${mark}.zip`, mimeType: 'application/zip', buffer: zip });

  // The normal flow: confirmation (with its destination picker), then progress.
  const confirm = page.getByRole('dialog', { name: 'Upload 4 files' });
  await expect(confirm).toBeVisible({ timeout: 30_000 });
  await expect(confirm.getByText('Destination')).toBeVisible();
  await expect(confirm.getByText('Survey/Maps/', { exact: true })).toHaveCount(2);
  await shoot('zip-confirm');
  await room.confirmUpload();

  // The entries that could not be unpacked, by name, in the retry modal.
  const report = page.getByRole('dialog', { name: 'Some files were not uploaded' });
  await expect(report).toBeVisible({ timeout: 60_000 });
  await expect(report.getByText('4 of 6 files were uploaded.')).toBeVisible();
  await expect(report.getByText('Survey/broken.txt', { exact: true })).toBeVisible();
  await expect(report.getByText('It is damaged in the archive and could not be unpacked.')).toBeVisible();
  await expect(report.getByText('Survey/secret.txt', { exact: true })).toBeVisible();
  await expect(report.getByText('It is encrypted in the archive, so it cannot be unpacked.')).toBeVisible();
  // Nothing there can be retried: the archive itself is damaged.
  await expect(report.getByRole('button', { name: 'Retry' })).toBeDisabled();
  await shoot('zip-not-uploaded');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot('zip-not-uploaded-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await report.getByRole('button', { name: 'Close' }).click();
  await expect(report).toBeHidden();
  // Cloud storage: no pending notice.
  await expect(page.getByRole('alert').filter({ hasText: 'Your uploads are pending.' })).toHaveCount(0);

  // The tree, without the skipped entries, and every byte as it was in the archive.
  await expect(room.row('top.txt')).toBeVisible({ timeout: 30_000 });
  expect(sha256(await room.download('top.txt'))).toBe(sha256(top));
  await room.row('Survey').getByText('Survey', { exact: true }).click();
  await expect(room.row('index.txt')).toBeVisible({ timeout: 30_000 });
  await expect(room.row('Maps')).toBeVisible();
  await expect(room.row('.DS_Store')).toHaveCount(0);
  await expect(room.row('broken.txt')).toHaveCount(0);
  await expect(room.row('secret.txt')).toHaveCount(0);
  expect(sha256(await room.download('index.txt'))).toBe(sha256(index));
  await room.row('Maps').getByText('Maps', { exact: true }).click();
  await expect(room.row('terrain.bin')).toBeVisible({ timeout: 30_000 });
  await shoot('zip-unpacked');
  expect(sha256(await room.download('terrain.bin'))).toBe(sha256(terrain));
  expect(sha256(await room.download('ridge.txt'))).toBe(sha256(ridge));
  await page.goBack();
  await page.goBack();
  await expect(room.row('__MACOSX')).toHaveCount(0);
});
