/**
 * Links a new user follows (issue 26): a vault, file or chat link from an e-mail, a notification or
 * a bookmark opens on a fresh device right after login (SYNC_SPEC R70); a file deleted for good
 * says so from its saved link (R71); an invitation to a vault without terms shows who invited and
 * as what, and waits for 'Accept invitation' (R72); inviting someone already in the vault says so.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { join } from 'node:path';
import { waitForMailLink } from './mailbox';
import { LoginPage } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

const SCREENSHOT_DIR = join(process.cwd(), '.tmp', 'screenshots');

/** A fresh browser (no cached data, signed out) opens `link`, logs in, and is brought back to it. */
async function openOnFreshDevice(
  browser: Browser,
  page: Page,
  link: string,
  email: string,
  prepare?: (context: BrowserContext) => Promise<void>,
): Promise<Page> {
  const context = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  await prepare?.(context);
  const fresh = await context.newPage();
  await fresh.goto(link);
  await expect(fresh).toHaveURL(/\/login/);
  await new LoginPage(fresh).submit(email, STRONG_PASSWORD);
  await expect(fresh).toHaveURL(new URL(link).pathname, { timeout: 30_000 });
  return fresh;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A new account with a private cloud vault holding `fileName`; the vault's and the file's links. */
async function vaultWithFile(page: Page, email: string, vaultName: string, fileName: string, text: string) {
  const file = { name: fileName, mimeType: 'text/plain', buffer: Buffer.from(`${text}, ${Date.now()}.\n`) };
  await new SignupFlow(page).createAccount(DATA_DIR, email, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  await room.pickFiles([file]);
  await room.confirmUpload();
  await expect(room.row(file.name)).toBeVisible({ timeout: 30_000 });
  const vaultUrl = page.url();
  await room.row(file.name).getByRole('link', { name: file.name }).click();
  await expect(page).toHaveURL(/\/stack\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('button', { name: `Download ${file.name}` })).toBeVisible();
  return { file, room, vaultUrl, fileUrl: page.url() };
}

// SYNC_SPEC R70; spec 000 section 8 ('load failure to /404').
test('R70: links: a vault, chat or file link opens on a fresh device right after login; an unknown vault is a 404', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const email = uniqueEmail(testInfo, 'links');
  const vaultName = `Expedition links ${Date.now().toString(36)}`;
  const { file, vaultUrl, fileUrl } = await vaultWithFile(page, email, vaultName, 'route-map.txt', 'The route over the pass');

  // The vault's files, from a link, on a device that has never seen the vault list. While the
  // server has not answered with the list (held here), the page says it is fetching the vault.
  let answerList = () => {};
  const listHeld = new Promise<void>((resolve) => (answerList = resolve));
  const device = await openOnFreshDevice(browser, page, vaultUrl, email, async (context) => {
    await context.route(/\/api\/vaults(\?.*)?$/, async (route) => {
      await listHeld;
      await route.continue();
    });
  });
  await expect(device.getByLabel('Loading vault')).toBeVisible();
  await expect(device.getByRole('status').filter({ hasText: 'Fetching this vault…' })).toBeVisible();
  await device.screenshot({ path: join(SCREENSHOT_DIR, `${testInfo.project.name}-links-fetching-vault.png`) });
  await expect(device).toHaveURL(new URL(vaultUrl).pathname);
  answerList();
  await expect(new VaultRoom(device).row(file.name)).toBeVisible({ timeout: 30_000 });
  await expect(device.getByRole('heading', { name: /something's wrong/ })).toHaveCount(0);
  await device.screenshot({ path: join(SCREENSHOT_DIR, `${testInfo.project.name}-links-fresh-device.png`), fullPage: true });
  // An unknown vault (a broken link) goes to /404 once the server has answered.
  await device.goto(vaultUrl.replace(/\/vaults\/active\/[^/]+\//, '/vaults/active/00000000-0000-4000-8000-000000000000/'));
  await expect(device).toHaveURL(/\/404$/, { timeout: 30_000 });
  await expect(device.getByText("The page you were looking for doesn't exist", { exact: false })).toBeVisible();
  await device.context().close();

  // The chat, and a file, each from a link on a fresh device.
  const chat = await openOnFreshDevice(browser, page, vaultUrl.replace(/\/assets$/, '/chat'), email);
  await expect(chat.getByRole('textbox', { name: 'Message' })).toBeVisible({ timeout: 30_000 });
  await chat.context().close();
  const viewer = await openOnFreshDevice(browser, page, fileUrl, email);
  await expect(viewer.getByRole('heading', { name: file.name })).toBeVisible({ timeout: 30_000 });
  await expect(viewer.getByRole('button', { name: `Download ${file.name}` })).toBeVisible();
  await viewer.context().close();
});

// SYNC_SPEC R12 and R71.
test('R12, R71: links: offline the top bar counts the changes waiting; a file deleted for good says so from its saved link, with nothing to download', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail(testInfo, 'deleted');
  const vaultName = `Expedition bin ${Date.now().toString(36)}`;
  const { file, room, vaultUrl, fileUrl } = await vaultWithFile(page, email, vaultName, 'old-permit.txt', 'A permit that ran out');

  // R12: offline, the top bar counts the changes waiting (the badge on wide screens, the name on phones).
  await page.goto(vaultUrl);
  await page.context().setOffline(true);
  await room.createFolder('Written offline');
  await expect(page.getByRole('status', { name: /^Sync: Offline · 1 change waiting\./ })).toBeVisible();
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${testInfo.project.name}-links-offline-count.png`) });
  await page.context().setOffline(false);
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 30_000 });

  // R71: hidden, then deleted for good; its saved link says so, with nothing to download.
  await page.goto(vaultUrl);
  await room.rowAction(file.name, 'Hide');
  await page.getByRole('dialog').getByRole('button', { name: 'Hide' }).click();
  await expect(room.row(file.name)).toBeHidden();
  await room.openHiddenFiles();
  await room.rowAction(file.name, 'Delete');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(room.row(file.name)).toBeHidden();
  await page.goto(fileUrl);
  await expect(page.getByRole('alert').filter({ hasText: 'This file was deleted' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: file.name })).toBeVisible();
  await expect(page.getByRole('button', { name: /Download/ })).toHaveCount(0);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${testInfo.project.name}-links-deleted-file.png`), fullPage: true });
});

// SYNC_SPEC R72, spec 001 section 2 (invite page), section 5 (invitation to a vault).
test('R72: invitations without terms: the notification and the e-mail show who invited and the role, and nothing is accepted until Accept invitation; inviting a member says they are one', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const ownerEmail = uniqueEmail(testInfo, 'noterms-owner');
  const memberEmail = uniqueEmail(testInfo, 'noterms-member');
  const vaultName = `Expedition open ${Date.now().toString(36)}`;

  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const member = await other.newPage();
  await new SignupFlow(member).createAccount(DATA_DIR, memberEmail, STRONG_PASSWORD);
  await new SignupFlow(page).createAccount(DATA_DIR, ownerEmail, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  const vaultUrl = page.url();

  // The member is invited as a contributor.
  await room.openVaultMenu(vaultName, 'Invite to vault');
  await page.getByRole('textbox', { name: 'E-mail 1' }).fill(memberEmail);
  await page.getByRole('combobox', { name: 'Role 1' }).selectOption('CONTRIBUTOR');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Invitation sent.')).toBeVisible();

  // From the notification: who invited, as what, and the two choices; nothing is accepted yet.
  await member.goto('/notifications');
  await member.getByRole('button', { name: new RegExp(`^Unread: ${escapeRegExp(ownerEmail)} invited you to`) }).click({ timeout: 30_000 });
  await expect(member).toHaveURL(/\/invite\?membershipId=/);
  await expect(member.getByText(`You have been invited by ${ownerEmail} to their vault.`)).toBeVisible({ timeout: 30_000 });
  const role = member.getByRole('region', { name: 'Your role' });
  await expect(role.getByText('Contributor', { exact: true })).toBeVisible();
  await expect(role.getByText('You can upload files, request data and delete files.')).toBeVisible();
  await expect(member.getByRole('button', { name: 'Reject terms' })).toBeVisible();
  await expect(member.getByRole('button', { name: 'Accept invitation' })).toBeVisible();
  await expect(member).toHaveURL(/\/invite\?membershipId=/);
  await member.screenshot({ path: join(SCREENSHOT_DIR, `${testInfo.project.name}-links-invite-no-terms.png`), fullPage: true });

  // The e-mailed link shows the same page: the invitation is still waiting for the member.
  await member.goto(await waitForMailLink(DATA_DIR, memberEmail, '/invite?membershipId='));
  await expect(member.getByText(`You have been invited by ${ownerEmail} to their vault.`)).toBeVisible({ timeout: 30_000 });
  await member.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(member).toHaveURL(/\/vaults\/active\/[A-Za-z0-9_-]+\/assets$/, { timeout: 30_000 });
  await expect(member.getByText('Access accepted. The vault is now in your list.')).toBeVisible();

  // Inviting the member again, or yourself: already a member, and nothing else is said.
  await page.goto(vaultUrl);
  await room.openVaultMenu(vaultName, 'Invite to vault');
  await page.getByRole('textbox', { name: 'E-mail 1' }).fill(ownerEmail);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('You are already a member of this vault.')).toBeVisible();
  await expect(page.getByText('There was an error sending the invitation.')).toHaveCount(0);
  await expect(page.getByText('This person has already been invited.')).toHaveCount(0);

  await page.getByRole('textbox', { name: 'E-mail 1' }).fill(memberEmail);
  await expect(page.getByText('You are already a member of this vault.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('This person is already a member of this vault.')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('There was an error sending the invitation.')).toHaveCount(0);
  await other.close();
});
