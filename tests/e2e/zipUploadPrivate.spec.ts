import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeZip } from '../fixtures/zipArchive';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every file under `dir` (the server's data: its database, its chunk files). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// Issue 19, docs/SYNC_SPEC.md R82-R83: the archive is unpacked on the device, and each entry is
// sealed and encrypted like a picked file before anything leaves the browser.
test('[R82] upload zip & unpack into a private vault: nested and empty folders, bytes intact, nothing in clear on the wire [R83] a zip-slip entry reported', async ({
  page,
  requestLog,
  shoot,
}, testInfo) => {
  test.setTimeout(180_000);
  const mark = `Q${Date.now().toString(36)}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'zipprivate'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Sealed ${Date.now().toString(36)}`, { storage: 'Cloud storage', privacy: 'Private' });

  const names = {
    zip: `field-${mark}.zip`,
    survey: `Survey ${mark}`,
    maps: `Maps ${mark}`,
    empty: `Empty ${mark}`,
    index: `index-${mark}.txt`,
    terrain: `terrain-${mark}.bin`,
    top: `top-${mark}.txt`,
    escape: `escape-${mark}.txt`,
  };
  // Several chunks of incompressible bytes, text that names the mark on every line, a stored entry.
  const terrain = randomBytes(9 * 1024 * 1024);
  const index = Buffer.from(`${mark} survey index\n`.repeat(400));
  const top = Buffer.from(`${mark} at the archive root`);
  const zip = makeZip([
    { name: `${names.survey}/` },
    { name: `${names.survey}/${names.index}`, data: index },
    { name: `${names.survey}/${names.maps}/${names.terrain}`, data: terrain },
    { name: `${names.survey}/${names.empty}/` },
    { name: names.top, data: top, isStored: true },
    { name: `../${names.escape}`, data: Buffer.from(`${mark} climbing out`) },
  ]);
  await room.pickZip({ name: names.zip, mimeType: 'application/zip', buffer: zip });

  // The normal flow: confirmation, then progress; the zip-slip entry by its name in the archive.
  const confirm = page.getByRole('dialog', { name: 'Upload 3 files' });
  await expect(confirm).toBeVisible({ timeout: 30_000 });
  await expect(confirm.getByText(`${names.survey}/${names.maps}/`, { exact: true })).toBeVisible();
  await shoot('zip-private-confirm');
  await room.confirmUpload();
  const report = page.getByRole('dialog', { name: 'Some files were not uploaded' });
  await expect(report).toBeVisible({ timeout: 90_000 });
  await expect(report.getByText('3 of 4 files were uploaded.')).toBeVisible();
  await expect(report.getByText(`../${names.escape}`, { exact: true })).toBeVisible();
  await expect(report.getByText('Its path points outside the archive.')).toBeVisible();
  await shoot('zip-private-not-uploaded');
  await report.getByRole('button', { name: 'Close' }).click();
  await expect(report).toBeHidden();
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 30_000 });

  // The tree as in the archive, the empty folder too, and the bytes as they were.
  await expect(room.row(names.top)).toBeVisible();
  await expect(room.row(names.escape)).toHaveCount(0);
  expect(sha256(await room.download(names.top))).toBe(sha256(top));
  await room.openFolder(names.survey);
  await expect(room.row(names.index)).toBeVisible();
  await expect(room.row(names.maps)).toBeVisible();
  await expect(room.row(names.empty)).toBeVisible();
  await shoot('zip-private-unpacked');
  expect(sha256(await room.download(names.index))).toBe(sha256(index));
  await room.openFolder(names.empty);
  await expect(page.getByText('This folder is empty')).toBeVisible();
  await page.goBack();
  await room.openFolder(names.maps);
  await expect(room.row(names.terrain)).toBeVisible();
  expect(sha256(await room.download(names.terrain))).toBe(sha256(terrain));

  // The log saw the operations and the chunks ...
  expect(requestLog.bodies.some((body) => body.includes('"ops"'))).toBe(true);
  expect(requestLog.urls.some((url) => /\/chunks\/\d+$/.test(url))).toBe(true);
  // ... and none carried an entry's name, the archive's name or a word of the text.
  for (const secret of [...Object.values(names), mark]) requestLog.expectNoneContains(secret);

  // What the server keeps (its database and chunk files) holds none of them either.
  const needles = [mark, ...Object.values(names)].map((text) => Buffer.from(text, 'utf8'));
  const leaks = filesUnder(DATA_DIR).filter((file) => {
    const bytes = readFileSync(file);
    return needles.some((needle) => bytes.includes(needle)) || bytes.includes(terrain.subarray(4096, 4160));
  });
  expect(leaks).toEqual([]);
});

test('[R82] unpacking a large zip shows its progress and can be cancelled: nothing is uploaded', async ({ page, requestLog }, testInfo) => {
  test.setTimeout(180_000);
  const mark = `C${Date.now().toString(36)}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'zipcancel'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Cancel ${Date.now().toString(36)}`, { storage: 'Cloud storage', privacy: 'Private' });
  // Thousands of entries: unpacking takes many seconds, and Cancel ends it at whichever it is on.
  const entries = Array.from({ length: 4000 }, (_, i) => ({ name: `Folder ${mark} ${i % 20}/entry ${i}.txt`, data: Buffer.from(`entry ${i} `.repeat(50)) }));
  await room.pickZip({ name: `many-${mark}.zip`, mimeType: 'application/zip', buffer: makeZip(entries) });
  await expect(page.getByText(new RegExp(`^Unpacking many-${mark}\\.zip\\.\\.\\. \\d+ of 4000$`))).toBeVisible();
  await page.getByRole('button', { name: 'Cancel unpacking' }).click();
  await expect(page.getByText('Unpacking cancelled.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel unpacking' })).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: /^Upload \d+ files?$/ })).toHaveCount(0);
  await expect(page.getByText('Add your first file')).toBeVisible();
  requestLog.expectNoneContains(mark);
});
