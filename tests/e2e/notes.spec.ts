import { LoginPage } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

const HOSTILE = [
  '# Packing list',
  '',
  'Tent and stove. A [safe link](https://example.com/map) and an [evil link](javascript:alert(3)).',
  '',
  '<script>alert(1)</script>',
  '',
  '<img src=x onerror=alert(2)>',
  '',
  '<div onclick="alert(4)">raw html</div>',
].join('\n');

test('notes: create, list, edit as a new version, render inert, and keep an unsaved draft across a reload', async ({ page, shoot }, testInfo) => {
  test.setTimeout(180_000);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const mark = `N${Date.now().toString(36)}${testInfo.project.name}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'notes'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Notes ${mark}`, { storage: 'Cloud storage', privacy: 'Private' });

  // Create note from the plus menu.
  await page.getByRole('button', { name: 'Add an asset' }).click();
  await page.getByRole('menuitem', { name: 'Create note' }).click();
  await expect(page).toHaveURL(/\/assets\/create-note$/);
  const title = page.getByRole('textbox', { name: 'Title' });
  const text = page.getByRole('textbox', { name: 'Text' });
  const save = page.getByRole('button', { name: 'Save note' });
  await expect(text).toBeEnabled();
  await expect(save).toBeDisabled();
  await text.fill(HOSTILE);
  // Without a title, the first line names the note.
  await expect(page.getByText('Saved as Packing list.md')).toBeVisible();
  await title.fill(`Trip ${mark}`);

  // The preview renders the markdown inert.
  if (testInfo.project.name === 'phone') await page.getByText('Preview', { exact: true }).click();
  const preview = page.getByTestId('markdown-preview');
  await expect(preview.getByRole('heading', { name: 'Packing list' })).toBeVisible();
  await expect(preview.getByRole('link', { name: 'safe link' })).toHaveAttribute('href', 'https://example.com/map');
  await expect(preview.getByText('evil link')).toBeVisible();
  await expect(page.locator('a[href^="javascript:" i]')).toHaveCount(0);
  await expect(preview.locator('script, img, [onerror], [onclick]')).toHaveCount(0);
  await shoot('note-new');

  // The unsaved draft survives a reload.
  await page.waitForTimeout(300);
  await page.reload();
  await expect(title).toHaveValue(`Trip ${mark}`, { timeout: 15_000 });
  if (testInfo.project.name === 'phone') await expect(page.getByText('Edit', { exact: true })).toBeVisible();
  await expect(text).toHaveValue(HOSTILE);

  // Save note: the saveNote confirmation, then the note is a markdown file in the list.
  await save.click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(`Save this note as "Trip ${mark}.md"?`);
  await confirm.getByRole('button', { name: 'Save note' }).click();
  await expect(page).toHaveURL(/\/assets$/);
  const fileName = `Trip ${mark}.md`;
  await expect(room.row(fileName)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 30_000 });

  // Edit note: the saved text loads; 'Save new version' is enabled once the text changes.
  await room.rowAction(fileName, 'Edit note');
  await expect(page).toHaveURL(/\/assets\/note\/[\w-]+$/);
  await expect(text).toHaveValue(HOSTILE, { timeout: 30_000 });
  await expect(title).toHaveValue(`Trip ${mark}`);
  const saveVersion = page.getByRole('button', { name: 'Save new version' });
  await expect(saveVersion).toBeDisabled();
  await text.fill(`${HOSTILE}\n\nAlso: matches.`);
  await expect(saveVersion).toBeEnabled();
  // An edited note's unsaved draft survives a reload too.
  await page.waitForTimeout(300);
  await page.reload();
  await expect(text).toHaveValue(`${HOSTILE}\n\nAlso: matches.`, { timeout: 30_000 });
  await expect(saveVersion).toBeEnabled();
  await shoot('note-edit');
  await saveVersion.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save new version' }).click();

  // The viewer lists two versions and renders the new one, inert.
  await expect(page).toHaveURL(/\/stack\/[\w-]+$/);
  const versions = page.getByRole('navigation', { name: 'Versions' });
  await expect(versions.getByRole('button', { name: /Version 2/ })).toBeVisible({ timeout: 60_000 });
  await expect(versions.getByRole('button', { name: /Version 1/ })).toBeVisible();
  const viewer = page.getByTestId('markdown-preview');
  await expect(viewer.getByText('Also: matches.')).toBeVisible({ timeout: 30_000 });
  await expect(viewer.locator('script, img, [onerror], [onclick]')).toHaveCount(0);
  await expect(page.locator('a[href^="javascript:" i]')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Edit note' })).toBeVisible();
  await shoot('note-viewer');

  expect(dialogs).toEqual([]);
});

// SYNC_SPEC R25-R27: two devices of one account editing one note's draft see each other's edits,
// and the saved text (which both seeded the draft with) appears once.
test('notes: a draft edited on two devices merges both edits live', async ({ page, browser, shoot }, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail(testInfo, 'notedraft');
  const mark = `D${Date.now().toString(36)}${testInfo.project.name}`;
  await new SignupFlow(page).createAccount(DATA_DIR, email, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  const vaultName = `Drafts ${mark}`;
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  const saved = 'Route: north ridge.';
  await room.pickFiles([{ name: 'Route.md', mimeType: 'text/markdown', buffer: Buffer.from(saved) }]);
  await room.confirmUpload();
  await expect(room.row('Route.md')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 30_000 });

  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const otherPage = await other.newPage();
  const login = new LoginPage(otherPage);
  await login.open();
  await login.submit(email, STRONG_PASSWORD);
  await otherPage.getByText(vaultName).filter({ visible: true }).first().click();
  const otherRoom = new VaultRoom(otherPage);
  await expect(otherRoom.row('Route.md')).toBeVisible({ timeout: 30_000 });
  await expect(otherPage.locator('[data-sync-status]').filter({ visible: true })).toHaveAttribute('data-realtime', 'open', { timeout: 30_000 });

  await room.rowAction('Route.md', 'Edit note');
  await otherRoom.rowAction('Route.md', 'Edit note');
  const text = page.getByRole('textbox', { name: 'Text' });
  const otherText = otherPage.getByRole('textbox', { name: 'Text' });
  await expect(text).toHaveValue(saved, { timeout: 30_000 });
  await expect(otherText).toHaveValue(saved, { timeout: 30_000 });

  await text.press('Control+End');
  await text.pressSequentially(' Camp at the lake.');
  await expect(otherText).toHaveValue(`${saved} Camp at the lake.`, { timeout: 20_000 });
  await otherText.press('Control+Home');
  await otherText.pressSequentially('Day 2. ');
  await expect(text).toHaveValue(`Day 2. ${saved} Camp at the lake.`, { timeout: 20_000 });
  await expect(otherText).toHaveValue(`Day 2. ${saved} Camp at the lake.`);
  await shoot('note-draft-shared');
  await other.close();
});
