import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
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
  test.skip(testInfo.project.name !== 'desktop', 'One project: the 375 px layout is checked by screenshots within the test.');
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
  await page.getByRole('button', { name: `Actions for ${vaultName}` }).click();
  await page.getByRole('menuitem', { name: 'Invite to vault' }).click();
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
