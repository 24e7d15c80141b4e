import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SignupFlow } from './pages/SignupFlow';
import { pendingMark, VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, localDay, test, uniqueEmail } from './fixtures';

const SCREENSHOT_DIR = join(process.cwd(), '.tmp', 'screenshots');

/** Desktop and 375 px screenshots of the page as it is, for review. */
async function shootBothWidths(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.screenshot({ path: join(SCREENSHOT_DIR, `airdrop-${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `airdrop-${name}-375.png`), fullPage: true });
  await page.setViewportSize(viewport);
}

// Spec 001 sections 2-6 and spec 000 sections 1-2: an airdrop link and the passwordless session.
test('airdrop: the owner generates a link in the invite form; a fresh browser opens it into a passwordless session with only the allowed menus', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const vaultName = `Survey drop ${Date.now().toString(36)}`;
  const secret = { name: 'survey-notes.txt', mimeType: 'text/plain', buffer: Buffer.from(`Cairn 14 rebuilt, ${Date.now()}.\n`) };

  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'airdrop-owner'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  await room.pickFiles([secret]);
  await room.confirmUpload();
  await expect(room.row(secret.name)).toBeVisible({ timeout: 30_000 });

  // The invite form's airdrop mode: one row, a free identifier, no OWNER.
  await room.openVaultMenu(vaultName, 'Invite to vault');
  await page.getByRole('switch', { name: 'Invite with an airdrop link' }).check();
  const form = page.getByTestId('airdrop-invite');
  await expect(form).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'E-mail 1' })).toHaveCount(0);
  expect(await form.getByRole('combobox', { name: 'Role' }).locator('option').allTextContents()).toEqual(['Contributor', 'Viewer']);
  const generate = form.getByRole('button', { name: 'Generate link' });
  await expect(generate).toBeDisabled();

  await form.getByRole('textbox', { name: 'Name' }).fill('Field auditor');
  const date = form.getByRole('textbox', { name: 'Expiry date' });
  await date.fill(await localDay(page, -1));
  await date.blur();
  await expect(form.getByText('Date cannot be in the past.')).toBeVisible();
  await expect(generate).toBeDisabled();
  await date.fill('31/02/2030');
  await expect(form.getByText('Use the format DD/MM/YYYY.')).toBeVisible();
  await date.fill(await localDay(page, 7));
  await expect(form.getByText('Date cannot be in the past.')).toHaveCount(0);

  // Allowed storage: 100% of what is available by default, or a figure in MB.
  const slider = form.getByRole('slider');
  await expect(slider).toHaveAttribute('aria-valuenow', '100');
  await form.getByText('MB', { exact: true }).click();
  await form.getByRole('textbox', { name: 'Allowed storage in MB' }).fill('50');
  await expect(form.getByText(/^50 MB of your .* available$/)).toBeVisible();
  await shootBothWidths(page, 'form');
  await generate.click();

  const linkBox = form.getByTestId('airdrop-link');
  await expect(linkBox).toBeVisible({ timeout: 30_000 });
  const link = (await linkBox.textContent())?.trim() ?? '';
  expect(link).toMatch(/^http:\/\/localhost:\d+\/login\?wallet=[A-Za-z0-9_-]{22}$/);
  const entropy = new URL(link).searchParams.get('wallet') ?? '';
  await expect(form.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Name' })).toBeDisabled();
  await shootBothWidths(page, 'link');

  // 'Reset and generate another' clears the form.
  await form.getByRole('button', { name: 'Reset and generate another' }).click();
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('');
  await expect(form.getByRole('textbox', { name: 'Expiry date' })).toHaveValue('');
  await expect(linkBox).toHaveCount(0);
  await expect(form.getByRole('button', { name: 'Generate link' })).toBeDisabled();

  // A fresh browser opens the link: a passwordless session lands on the vault list.
  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined, acceptDownloads: true });
  const guest = await other.newPage();
  const apiTraffic: string[] = [];
  guest.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) apiTraffic.push(`${request.url()} ${request.postData() ?? ''}`);
  });
  await guest.goto(link);
  await expect(guest).toHaveURL(/\/vaults\/active$/, { timeout: 60_000 });
  expect(guest.url()).not.toContain('wallet');
  await expect(guest.getByText(vaultName).first()).toBeVisible({ timeout: 30_000 });
  // The wallet's secret never went to the API: only its public key and signatures did.
  expect(apiTraffic.filter((entry) => entry.includes(entropy))).toEqual([]);

  // Only Vaults and Notifications in the navigation; only Log out (and Discord, when configured) in the avatar menu.
  const nav = guest.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByText('Vaults', { exact: true })).toBeVisible();
  await expect(nav.getByText('Storage', { exact: true })).toHaveCount(0);
  await expect(nav.getByText('Rewards', { exact: true })).toHaveCount(0);
  await guest.getByRole('button', { name: 'Account menu for Airdrop guest' }).click();
  // allTextContents does not wait: the menu must be open first.
  await expect(guest.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
  const items = await guest.getByRole('menuitem').allTextContents();
  expect(items.filter((item) => item !== 'Join our Discord')).toEqual(['Log out']);
  await shootBothWidths(guest, 'guest-menu');
  await guest.keyboard.press('Escape');

  // The vault opens and its private file decrypts with the link's wallet.
  await guest.getByText(vaultName).first().click();
  const guestRoom = new VaultRoom(guest);
  await expect(guestRoom.row(secret.name)).toBeVisible({ timeout: 30_000 });
  expect((await guestRoom.download(secret.name)).equals(secret.buffer)).toBe(true);
  await shootBothWidths(guest, 'guest-vault');

  // Pages the menus hide stay hidden when typed.
  await guest.goto('/account');
  await expect(guest).toHaveURL(/\/vaults\/active$/);

  // Log out, then a mangled link says so on the login page.
  await guest.getByRole('button', { name: 'Account menu for Airdrop guest' }).click();
  await guest.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(guest).toHaveURL(/\/login/);
  await guest.goto(`/login?wallet=${entropy.slice(0, 10)}`);
  await expect(guest.getByRole('alert')).toContainText('This link is not valid.');
  expect(guest.url()).not.toContain('wallet');
  await shootBothWidths(guest, 'bad-link');

  // A page of the app opened with ?wallet= signs in with it first, then comes back there.
  await guest.goto(`/vaults/active?wallet=${entropy}`);
  await expect(guest).toHaveURL(/\/vaults\/active$/, { timeout: 60_000 });
  await expect(guest.getByText(vaultName).first()).toBeVisible({ timeout: 30_000 });
  await other.close();
});

/**
 * Fills the invite form's airdrop mode for a CONTRIBUTOR with `megabytes` of upload storage and
 * generates the link; the form is then reset for the next one. The invite page is open.
 */
async function generateContributorLink(page: Page, name: string, megabytes: number): Promise<string> {
  const form = page.getByTestId('airdrop-invite');
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await form.getByRole('textbox', { name: 'Expiry date' }).fill(await localDay(page, 7));
  await form.getByText('MB', { exact: true }).click();
  await form.getByRole('textbox', { name: 'Allowed storage in MB' }).fill(String(megabytes));
  if (megabytes === 0) await expect(form.getByText('No uploads: this member can view and download only.')).toBeVisible();
  await form.getByRole('button', { name: 'Generate link' }).click();
  const linkBox = form.getByTestId('airdrop-link');
  await expect(linkBox).toBeVisible({ timeout: 30_000 });
  const link = (await linkBox.textContent())?.trim() ?? '';
  await form.getByRole('button', { name: 'Reset and generate another' }).click();
  await expect(linkBox).toHaveCount(0);
  return link;
}

// Spec 001 section 5: the link's storage is what its member may upload. Uploads are charged to
// the vault's owner, so the guest's confirmation shows the vault's room, not the guest's own.
test("airdrop storage: a contributor link with no storage cannot upload but makes folders; one with 1 MB uploads, shown the link's room", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const vaultName = `Drop box ${Date.now().toString(36)}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'airdrop-storage-owner'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  const filesUrl = page.url();
  await room.openVaultMenu(vaultName, 'Invite to vault');
  await page.getByRole('switch', { name: 'Invite with an airdrop link' }).check();
  const noStorageLink = await generateContributorLink(page, 'Reader with folders', 0);
  const storageLink = await generateContributorLink(page, 'Uploader', 1);

  /** A fresh browser signed in through `link`, inside the vault's files. */
  async function guestIn(link: string): Promise<{ guest: Page; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
    const guest = await context.newPage();
    await guest.goto(link);
    await expect(guest).toHaveURL(/\/vaults\/active$/, { timeout: 60_000 });
    await guest.getByText(vaultName).first().click();
    await expect(guest.getByRole('button', { name: 'Add an asset' })).toBeEnabled({ timeout: 30_000 });
    return { guest, close: () => context.close() };
  }

  // No storage: the upload entries are disabled and say why; a folder can still be made.
  const reader = await guestIn(noStorageLink);
  await reader.guest.getByRole('button', { name: 'Add an asset' }).click();
  await expect(reader.guest.getByText('This link does not allow uploads.')).toBeVisible();
  await expect(reader.guest.getByRole('menuitem', { name: 'Upload file' })).toBeDisabled();
  await expect(reader.guest.getByRole('menuitem', { name: 'Upload folder' })).toBeDisabled();
  await expect(reader.guest.getByRole('menuitem', { name: 'Create folder' })).toBeEnabled();
  await reader.guest.keyboard.press('Escape');
  const readerRoom = new VaultRoom(reader.guest);
  await readerRoom.createFolder('Guest folder');
  await expect(readerRoom.row('Guest folder')).toBeVisible();
  await reader.close();

  // 1 MB: the confirmation shows the link's 1 MB (the owner has far more, the guest's own account
  // 1 GB), and the upload goes through.
  const uploader = await guestIn(storageLink);
  const uploaderRoom = new VaultRoom(uploader.guest);
  const note = { name: 'field-note.txt', mimeType: 'text/plain', buffer: Buffer.from(`Seen at the ridge, ${Date.now()}.\n`) };
  await uploaderRoom.pickFiles([note]);
  await expect(uploader.guest.getByRole('dialog', { name: 'Upload 1 file' }).getByText('Available: 1 MB', { exact: true })).toBeVisible();
  await uploaderRoom.confirmUpload();
  await expect(uploaderRoom.row(note.name)).toBeVisible({ timeout: 30_000 });
  await expect(pendingMark(uploaderRoom.row(note.name))).toHaveCount(0, { timeout: 30_000 });
  // The row's marks do not say the upload is sent (its progress replaces the pending mark); the
  // top bar counts it as waiting until its file operation is accepted. Closing the browser before
  // would leave it on the guest's device.
  await expect(uploader.guest.getByRole('status', { name: /^Sync: Synced/ })).toBeVisible({ timeout: 60_000 });
  await uploader.close();

  // The owner sees both guests' additions.
  await page.goto(filesUrl);
  await expect(room.row('Guest folder')).toBeVisible({ timeout: 30_000 });
  await expect(room.row(note.name)).toBeVisible({ timeout: 30_000 });
});
