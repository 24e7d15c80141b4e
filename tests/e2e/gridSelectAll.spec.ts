import { gradientPng } from '../fixtures/gradientPng';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

// Issue 26: the grid view had no 'Select all'. It has the list's checkbox, by the same name, and the
// batch bar acts on what it selects.
test('the grid view has the list\'s "Select all": the batch bar counts the selection and acts on it', async ({ page, shoot }, testInfo) => {
  test.setTimeout(150_000);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'grid-all'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Tiles ${Date.now().toString(36)}`, { storage: 'Cloud storage', privacy: 'Private' });
  await room.pickFiles([
    { name: 'col.png', mimeType: 'image/png', buffer: gradientPng(300, 200) },
    { name: 'ridge.png', mimeType: 'image/png', buffer: gradientPng(200, 300) },
    { name: 'log.txt', mimeType: 'text/plain', buffer: Buffer.from('Day 3: rain.') },
  ]);
  await room.confirmUpload();
  await expect(page.getByTestId('pending-upload')).toHaveCount(0, { timeout: 60_000 });
  await room.createFolder('Maps');
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 30_000 });

  await page.getByRole('button', { name: 'Grid view' }).click();
  const grid = page.getByRole('list', { name: 'Files and folders' });
  await expect(grid.getByRole('group')).toHaveCount(4);
  const selectAll = page.getByRole('checkbox', { name: 'Select all' });
  await expect(selectAll).toBeVisible();
  await expect(room.summary).toHaveText('4 items');

  await selectAll.check();
  await expect(room.summary).toHaveText('All 4 selected');
  for (const name of ['Maps', 'col.png', 'ridge.png', 'log.txt']) await expect(grid.getByRole('checkbox', { name: `Select ${name}` })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Download', exact: true })).toBeVisible();
  await shoot('grid-select-all', { fullPage: false });

  // One tile unselected: the box shows a partial selection; checking it again selects all.
  await grid.getByRole('checkbox', { name: 'Select log.txt' }).click();
  await expect(room.summary).toHaveText('3 selected');
  await expect(selectAll).not.toBeChecked();
  await selectAll.click();
  await expect(room.summary).toHaveText('All 4 selected');

  // The batch bar acts on the grid's selection: the four are hidden together.
  await page.getByRole('button', { name: 'Hide', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Hide' });
  await expect(confirm).toContainText('Hide 4 items?');
  await confirm.getByRole('button', { name: 'Hide', exact: true }).click();
  await expect(grid).toBeHidden({ timeout: 30_000 });
  await expect(page.getByText('Maps', { exact: true })).toHaveCount(0);
});
