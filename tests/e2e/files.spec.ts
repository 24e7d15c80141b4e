import { readFileSync } from 'node:fs';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

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
  await page.getByRole('button', { name: `Actions for ${vaultName}` }).click();
  await page.getByRole('menuitem', { name: 'Description and tags' }).click();
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
  await page.getByRole('button', { name: `Actions for ${vaultName}` }).click();
  await page.getByRole('menuitem', { name: 'Description and tags' }).click();
  await expect(drawer.getByRole('textbox', { name: 'Description' })).toHaveValue('Maps for the ridge');
  await expect(drawer.getByText('alpine', { exact: true })).toBeVisible();
});
