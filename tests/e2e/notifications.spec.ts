import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';
import { getApiJson } from './pages/pageApi';

const SCREENSHOT_DIR = join(process.cwd(), '.tmp', 'screenshots');

async function shootBothWidths(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.screenshot({ path: join(SCREENSHOT_DIR, `notifications-${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `notifications-${name}-375.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `notifications-${name}-375-dark.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(viewport);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Spec 000 sections 2-4, docs/SYNC_SPEC.md R30-R31: a member hears of an upload live, opens it,
// marks all read (the dots go), and clears the list.
test('notifications: a member gets an upload live, opens the vault from it, marks all read and clears all', async ({ page, browser }, testInfo) => {
  test.setTimeout(300_000);
  const ownerEmail = uniqueEmail(testInfo, 'notif-owner');
  const memberEmail = uniqueEmail(testInfo, 'notif-member');
  const vaultName = `Survey ${Date.now().toString(36)}`;
  const file = { name: 'ridge-survey.txt', mimeType: 'text/plain', buffer: Buffer.from(`Ridge survey ${Date.now()}\n`) };

  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const member = await other.newPage();
  await new SignupFlow(member).createAccount(DATA_DIR, memberEmail, STRONG_PASSWORD);
  await new SignupFlow(page).createAccount(DATA_DIR, ownerEmail, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private', terms: 'Field use only.' });
  const vaultUrl = page.url();

  // The owner invites; the member accepts from the notification.
  await room.openVaultMenu(vaultName, 'Invite to vault');
  await page.getByRole('textbox', { name: 'E-mail 1' }).fill(memberEmail);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Invitation sent.')).toBeVisible();
  await member.goto('/notifications');
  await member.getByRole('button', { name: new RegExp(`^Unread: ${escapeRegExp(ownerEmail)} invited you to`) }).click({ timeout: 30_000 });
  await expect(member).toHaveURL(/\/invite\?membershipId=/);
  await member.getByRole('checkbox', { name: 'By checking this box you are agreeing to digitally sign and accept the terms.' }).check({ timeout: 30_000 });
  await member.getByRole('button', { name: 'Accept terms' }).click();
  await expect(member).toHaveURL(/\/vaults\/active\/[A-Za-z0-9_-]+\/assets$/, { timeout: 30_000 });
  await new VaultRoom(member).skipTourIfShown();

  // Away from the vault, the member's list is read; then the owner uploads.
  await member.goto('/notifications');
  await expect(member.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  await expect(member.getByRole('link', { name: 'Notifications, unread items' })).toHaveCount(0);
  await page.goto(vaultUrl);
  await room.pickFiles([file]);
  await room.confirmUpload();
  await expect(room.row(file.name)).toBeVisible({ timeout: 30_000 });

  // Live, without a reload: the item names the owner, the file (once pulled) and the vault; dots show.
  const upload = member.getByRole('button', {
    name: new RegExp(`^Unread: ${escapeRegExp(ownerEmail)} uploaded (a file|"${escapeRegExp(file.name)}") in "${escapeRegExp(vaultName)}"\\.$`),
  });
  await expect(upload).toBeVisible({ timeout: 30_000 });
  await expect(member.getByRole('link', { name: 'Notifications, unread items' })).toBeVisible();
  // The vault list with its dots is the desktop side navigation's (spec 000 section 2).
  const isPhone = testInfo.project.name === 'phone';
  if (!isPhone) await expect(member.getByRole('link', { name: `${vaultName}, unread notifications` })).toBeVisible();
  await expect(
    member.getByRole('button', { name: new RegExp(`^Unread: ${escapeRegExp(ownerEmail)} uploaded "${escapeRegExp(file.name)}"`) }),
  ).toBeVisible({ timeout: 30_000 });
  await shootBothWidths(member, 'unread');

  // Clicking opens the vault's assets and marks it read.
  await upload.click();
  await expect(member).toHaveURL(/\/vaults\/active\/[A-Za-z0-9_-]+\/assets$/);
  await expect(new VaultRoom(member).row(file.name)).toBeVisible({ timeout: 30_000 });
  await member.goto('/notifications');
  await expect(member.getByRole('button', { name: new RegExp(`^${escapeRegExp(ownerEmail)} uploaded "${escapeRegExp(file.name)}"`) })).toBeVisible();

  // A second upload while away: unread again; Mark all as read clears every dot.
  const second = { name: 'ridge-survey-2.txt', mimeType: 'text/plain', buffer: Buffer.from('second\n') };
  await room.pickFiles([second]);
  await room.confirmUpload();
  await expect(member.getByRole('link', { name: 'Notifications, unread items' })).toBeVisible({ timeout: 30_000 });
  // Offline: the action shows at once and is sent when the device is back (SYNC_SPEC R31).
  await other.setOffline(true);
  await member.getByRole('button', { name: 'Notification actions' }).click();
  await member.getByRole('menuitem', { name: 'Mark all as read' }).click();
  await expect(member.getByRole('link', { name: 'Notifications, unread items' })).toHaveCount(0);
  await other.setOffline(false);
  await expect
    .poll(async () => {
      const { notifications } = await getApiJson<{ notifications: { status: string }[] }>(member, '/api/notifications');
      return notifications.filter((n) => n.status === 'UNREAD').length;
    }, { timeout: 30_000 })
    .toBe(0);
  if (!isPhone) await expect(member.getByRole('link', { name: `${vaultName}, unread notifications` })).toHaveCount(0);
  await expect(member.getByRole('button', { name: /^Unread: / })).toHaveCount(0);
  // Read on the server too: a reload shows the same.
  await member.reload();
  await expect(member.getByRole('button', { name: new RegExp(`uploaded "${escapeRegExp(second.name)}"`) })).toBeVisible({ timeout: 30_000 });
  await expect(member.getByRole('button', { name: /^Unread: / })).toHaveCount(0);
  await shootBothWidths(member, 'read');

  // Clear all notifications: the empty state, after a reload too.
  await member.getByRole('button', { name: 'Notification actions' }).click();
  await member.getByRole('menuitem', { name: 'Clear all notifications' }).click();
  await expect(member.getByText('All clear')).toBeVisible();
  await member.reload();
  await expect(member.getByText('All clear')).toBeVisible({ timeout: 30_000 });
  await shootBothWidths(member, 'empty');
  await other.close();
});
