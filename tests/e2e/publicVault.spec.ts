import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SignupFlow } from './pages/SignupFlow';
import { pendingMark, VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test('public vault: Share copies the link; signed out, the viewer shows folders and files read-only and downloads byte for byte', async ({ page, browser, shoot }, testInfo) => {
  test.setTimeout(180_000);
  const mark = `P${Date.now().toString(36)}`;
  const vaultName = `Atlas ${mark}`;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'public'), STRONG_PASSWORD);
  const room = new VaultRoom(page);

  // A private vault first: its id must give nothing under /public.
  await room.createVault(`Secret ${mark}`, { storage: 'Cloud storage', privacy: 'Private' });
  const privateId = /\/vaults\/active\/([A-Za-z0-9_-]+)\/assets$/.exec(page.url())![1]!;
  // 'Share' is only for public vaults.
  await page.getByRole('button', { name: `Actions for Secret ${mark}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Vault info' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Share' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Public', tour: 'none' });
  const vaultId = /\/vaults\/active\/([A-Za-z0-9_-]+)\/assets$/.exec(page.url())![1]!;
  const readme = Buffer.from(`# ${mark}\n\nField notes for the public atlas.\n`);
  const survey = randomBytes(300_000);
  await room.pickFiles([{ name: 'readme.txt', mimeType: 'text/plain', buffer: readme }]);
  await room.confirmUpload();
  await room.createFolder('Maps');
  await room.openFolder('Maps');
  await room.pickFiles([{ name: 'survey.bin', mimeType: 'application/octet-stream', buffer: survey }]);
  await room.confirmUpload();
  await expect(room.row('survey.bin')).toBeVisible({ timeout: 30_000 });
  await expect(pendingMark(room.row('survey.bin'))).toHaveCount(0, { timeout: 30_000 });
  await page.goBack();
  await expect(pendingMark(room.row('readme.txt'))).toHaveCount(0, { timeout: 30_000 });

  await room.openVaultMenu(vaultName, 'Share');
  await expect(page.getByText('Public link copied to the clipboard.')).toBeVisible();
  await shoot('public-share-copied');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(`${new URL(page.url()).origin}/public/vaults/active/${vaultId}/assets`);
  // A file's Share: the public viewer with the file open.
  await room.rowAction('readme.txt', 'Share');
  await expect(page.getByText('Public link copied to the clipboard.').first()).toBeVisible();
  const fileLink = await page.evaluate(() => navigator.clipboard.readText());
  expect(fileLink).toMatch(new RegExp(`/public/vaults/active/${vaultId}/assets\\?file=[A-Za-z0-9_-]+$`));

  // A fresh browser, signed out.
  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined, acceptDownloads: true, baseURL: new URL(link).origin });
  const guest = await other.newPage();
  await guest.goto(link);
  await expect(guest.getByRole('heading', { level: 1, name: vaultName })).toBeVisible({ timeout: 30_000 });
  const files = guest.getByRole('table', { name: 'Files and folders' });
  const rows = files.getByRole('row');
  await expect(rows.nth(1)).toContainText('Maps');
  await expect(rows.nth(2)).toContainText('readme.txt');
  // The chrome of public routes.
  await expect(guest.getByRole('link', { name: 'What is the permanent network?' })).toBeVisible();
  await expect(guest.getByRole('link', { name: 'What is Cairn?' })).toBeVisible();
  await expect(guest.getByRole('link', { name: 'Sign up' }).first()).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Profile' })).toBeDisabled();
  const nav = guest.getByRole('navigation', { name: 'Main' });
  for (const item of ['Vaults', 'Storage', 'Rewards', 'Notifications']) await expect(nav.getByRole('button', { name: item })).toBeDisabled();
  // A cloud vault has no Atomic NFTs (spec 002 section 6): no tab for them.
  await expect(guest.getByRole('tab', { name: /Atomic NFTs/ })).toHaveCount(0);
  // Read-only: nothing to add (on a phone the floating add button is there, disabled), no row menus.
  const isPhone = testInfo.project.name === 'phone';
  const expectNoAdding = async (viewer: typeof guest) =>
    isPhone ? expect(viewer.getByRole('button', { name: 'Add an asset' })).toBeDisabled() : expect(viewer.getByRole('button', { name: 'Add an asset' })).toHaveCount(0);
  await expectNoAdding(guest);
  await expect(guest.getByRole('button', { name: /^Actions for/ })).toHaveCount(0);
  await guest.screenshot({ path: `.tmp/screenshots/${testInfo.project.name}-public-viewer.png`, fullPage: true });

  // The file viewer shows the text, inert, and downloads it byte for byte.
  await guest.getByRole('button', { name: 'Open readme.txt' }).click();
  const viewer = guest.getByRole('dialog', { name: 'readme.txt' });
  await expect(viewer.getByText('Field notes for the public atlas.')).toBeVisible();
  await guest.screenshot({ path: `.tmp/screenshots/${testInfo.project.name}-public-viewer-file.png` });
  const downloading = guest.waitForEvent('download');
  await viewer.getByRole('button', { name: 'Download' }).click();
  const saved = await downloading;
  expect(saved.suggestedFilename()).toBe('readme.txt');
  expect(sha256(readFileSync((await saved.path())!))).toBe(sha256(readme));
  await guest.keyboard.press('Escape');

  // Into the folder: breadcrumb, filters reset with the path, a binary file downloaded exactly.
  await guest.getByRole('textbox', { name: 'Filter by name' }).fill('zzz');
  await expect(guest.getByText('Nothing matches these filters.')).toBeVisible();
  await guest.getByRole('textbox', { name: 'Filter by name' }).fill('Ma');
  await files.getByRole('link', { name: 'Maps' }).click();
  await expect(guest).toHaveURL(new RegExp(`/public/vaults/active/${vaultId}/assets/folders/[A-Za-z0-9_-]+$`));
  await expect(guest.getByRole('textbox', { name: 'Filter by name' })).toHaveValue('');
  await expect(guest.getByRole('navigation', { name: 'Folder path' }).getByText('Maps')).toBeVisible();
  const binDownload = guest.waitForEvent('download');
  await guest.getByRole('button', { name: 'Download survey.bin' }).click();
  expect(sha256(readFileSync((await (await binDownload).path())!))).toBe(sha256(survey));
  await guest.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: vaultName }).click();
  await expect(rows.nth(2)).toContainText('readme.txt');

  // A file's link opens its viewer.
  await guest.goto(fileLink);
  await expect(guest.getByRole('dialog', { name: 'readme.txt' }).getByText('Field notes for the public atlas.')).toBeVisible({ timeout: 30_000 });
  await guest.keyboard.press('Escape');
  await expect(guest.getByRole('dialog', { name: 'readme.txt' })).toBeHidden();

  // The gallery view.
  await guest.getByText('Gallery', { exact: true }).click();
  await expect(guest).toHaveURL(new RegExp(`/public/vaults/active/${vaultId}/gallery$`));
  await expect(guest.getByRole('button', { name: 'Open readme.txt' })).toBeVisible();

  // Phone width.
  await guest.setViewportSize({ width: 375, height: 800 });
  await guest.goto(link);
  await expect(guest.getByRole('heading', { level: 1, name: vaultName })).toBeVisible({ timeout: 30_000 });
  await expect(guest.getByRole('link', { name: 'What is the permanent network?' })).toBeVisible();
  // The phone's floating add button is there, disabled.
  await expect(guest.getByRole('button', { name: 'Add an asset' })).toBeDisabled();
  await guest.screenshot({ path: `.tmp/screenshots/${testInfo.project.name}-public-viewer-375.png`, fullPage: true });
  await guest.emulateMedia({ colorScheme: 'dark' });
  await guest.screenshot({ path: `.tmp/screenshots/${testInfo.project.name}-public-viewer-375-dark.png`, fullPage: true });
  await guest.setViewportSize({ width: 1280, height: 800 });

  // A private vault's id, an unknown one: the same answer. Anything else under /public: login.
  await guest.goto(`/public/vaults/active/${privateId}/assets`);
  await expect(guest.getByText('This vault does not exist or is not public.')).toBeVisible({ timeout: 30_000 });
  await expect(guest.getByText('Secret')).toHaveCount(0);
  await guest.goto(`/public/somewhere/else`);
  await expect(guest).toHaveURL(/\/login/);

  // The signed-in owner opening the link sees the same read-only viewer.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: vaultName })).toBeVisible({ timeout: 30_000 });
  await expectNoAdding(page);
  await other.close();
});
