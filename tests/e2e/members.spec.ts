import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { waitForMailLink } from './mailbox';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

const SCREENSHOT_DIR = join(process.cwd(), '.tmp', 'screenshots');

/** Desktop and 375 px screenshots of the page as it is, for review. */
async function shootBothWidths(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.screenshot({ path: join(SCREENSHOT_DIR, `members-${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `members-${name}-375.png`), fullPage: true });
  await page.setViewportSize(viewport);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Spec 001 sections 2, 4-6: invite, accept the terms, roles, revoke with key rotation.
test('members: an owner invites a viewer, who accepts the terms and downloads; made contributor they upload; revoked, the vault leaves their list', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  const ownerEmail = uniqueEmail(testInfo, 'owner');
  const inviteeEmail = uniqueEmail(testInfo, 'invitee');
  const vaultName = `Field archive ${Date.now().toString(36)}`;
  // Markup in the terms must show as typed, never as HTML.
  const terms = 'Use the <b>field notes</b> for research only.\nDo not share them outside the team.';
  const secret = { name: 'field-notes.txt', mimeType: 'text/plain', buffer: Buffer.from(`Cache at the second cairn, ${Date.now()}.\n`) };

  // The invitee has an account already (spec 001 section 5: only account holders are invited).
  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined, acceptDownloads: true });
  const invitee = await other.newPage();
  await new SignupFlow(invitee).createAccount(DATA_DIR, inviteeEmail, STRONG_PASSWORD);

  // The owner's private vault with terms and a file.
  await new SignupFlow(page).createAccount(DATA_DIR, ownerEmail, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private', terms });
  await room.pickFiles([secret]);
  await room.confirmUpload();
  await expect(room.row(secret.name)).toBeVisible({ timeout: 30_000 });
  await room.uploadBox().getByRole('button', { name: 'Close' }).click();
  const vaultUrl = page.url();

  // Invite to vault: typing a valid e-mail adds the next row; the message says it is unencrypted.
  await room.openVaultMenu(vaultName, 'Invite to vault');
  await expect(page).toHaveURL(/\/invite-to-vault$/);
  await expect(page.getByRole('heading', { name: 'Invite to vault' })).toBeVisible();
  await expect(page.getByText('Sent unencrypted in the invitation e-mail', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await page.getByRole('textbox', { name: 'E-mail 1' }).fill('nobody.here');
  await expect(page.getByRole('textbox', { name: 'E-mail 2' })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'E-mail 1' }).fill(inviteeEmail);
  await expect(page.getByRole('textbox', { name: 'E-mail 2' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Role 1' })).toHaveValue('VIEWER');
  expect(await page.getByRole('combobox', { name: 'Role 1' }).locator('option').allTextContents()).toEqual(['Contributor', 'Viewer', 'Owner']);
  await page.getByRole('textbox', { name: 'Message (optional)' }).fill('The season notes are in here.');
  await shootBothWidths(page, 'invite-to-vault');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Invitation sent.')).toBeVisible();
  await expect(page).toHaveURL(vaultUrl);

  // The invitee's notifications list the invitation.
  await invitee.goto('/notifications');
  // It names the vault once the invitee's device has pulled it (an invitee may read it before accepting).
  const invitation = new RegExp(`^Unread: ${escapeRegExp(ownerEmail)} invited you to (a vault|"${escapeRegExp(vaultName)}")\\.$`);
  await expect(invitee.getByRole('button', { name: invitation })).toBeVisible({ timeout: 15_000 });
  await shootBothWidths(invitee, 'notifications');

  // The vault list marks the invitation and opens the invite page from it.
  await invitee.goto('/vaults/active');
  const invitedRow = invitee.getByRole('row').filter({ hasText: '(Invitation)' });
  await expect(invitedRow).toBeVisible({ timeout: 30_000 });
  await invitedRow.getByRole('link').click();
  await expect(invitee).toHaveURL(/\/invite\?membershipId=/);
  await expect(invitee.getByRole('heading', { name: 'Terms of access' })).toBeVisible();

  // The e-mailed link opens the invite page with the role card and the terms, as text.
  const link = await waitForMailLink(DATA_DIR, inviteeEmail, '/invite?membershipId=');
  expect(new URL(link).search).toBe(new URL(invitee.url()).search);
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'Terms of access' })).toBeVisible({ timeout: 30_000 });
  await expect(invitee.getByText('You can view and download content in the vault.')).toBeVisible();
  await expect(invitee.getByTestId('terms-text')).toHaveText(terms, { timeout: 30_000 });
  await expect(invitee.locator('b', { hasText: 'field notes' })).toHaveCount(0);
  const accept = invitee.getByRole('button', { name: 'Accept terms' });
  await expect(accept).toBeDisabled();
  await shootBothWidths(invitee, 'invite-page');
  await invitee.emulateMedia({ colorScheme: 'dark' });
  await invitee.screenshot({ path: join(SCREENSHOT_DIR, 'members-invite-page-dark.png'), fullPage: true });
  await invitee.emulateMedia({ colorScheme: 'light' });
  await invitee.getByRole('checkbox', { name: 'By checking this box you are agreeing to digitally sign and accept the terms.' }).check();
  await accept.click();

  // Accepted: the vault opens, the private file decrypts byte for byte, and a VIEWER adds nothing.
  await expect(invitee).toHaveURL(/\/vaults\/active\/[A-Za-z0-9_-]+\/assets$/, { timeout: 30_000 });
  const inviteeRoom = new VaultRoom(invitee);
  await inviteeRoom.skipTourIfShown();
  await expect(inviteeRoom.row(secret.name)).toBeVisible({ timeout: 30_000 });
  expect((await inviteeRoom.download(secret.name)).equals(secret.buffer)).toBe(true);
  await expect(invitee.getByRole('button', { name: 'Add an asset' })).toBeDisabled();
  await invitee.getByRole('button', { name: `Actions for ${vaultName}` }).click();
  await expect(invitee.getByRole('menuitem', { name: 'View members' })).toBeVisible();
  await expect(invitee.getByRole('menuitem', { name: 'Invite to vault' })).toHaveCount(0);
  await invitee.keyboard.press('Escape');

  // Manage access: Save changes waits for a change; the invitee becomes a CONTRIBUTOR.
  await room.openVaultMenu(vaultName, 'Manage access');
  await expect(page.getByRole('heading', { name: 'Manage access' })).toBeVisible();
  const inviteeRow = page.getByTestId('member-row').filter({ hasText: inviteeEmail });
  await expect(inviteeRow).toBeVisible({ timeout: 15_000 });
  await expect(inviteeRow.getByText(/^\d{5} \d{5} \d{5} \d{5} \d{5} \d{5}$/)).toBeVisible();
  const save = page.getByRole('button', { name: 'Save changes' });
  await expect(save).toBeDisabled();
  const role = page.getByRole('combobox', { name: `Role of ${inviteeEmail}` });
  await role.selectOption('CONTRIBUTOR');
  await expect(save).toBeEnabled();
  await shootBothWidths(page, 'manage-access');
  await save.click();
  await expect(page.getByText('Access updated.')).toBeVisible();
  await expect(save).toBeDisabled();

  // The new CONTRIBUTOR uploads, and the owner sees the file.
  const added = { name: 'contributor-log.txt', mimeType: 'text/plain', buffer: Buffer.from('Walked the ridge, all cairns standing.\n') };
  await invitee.reload();
  await expect(invitee.getByRole('button', { name: 'Add an asset' })).toBeEnabled({ timeout: 30_000 });
  await inviteeRoom.pickFiles([added]);
  await inviteeRoom.confirmUpload();
  await expect(inviteeRoom.row(added.name)).toBeVisible({ timeout: 30_000 });
  await inviteeRoom.uploadBox().getByRole('button', { name: 'Close' }).click();
  await page.goto(vaultUrl);
  await expect(room.row(added.name)).toBeVisible({ timeout: 30_000 });
  expect((await room.download(added.name)).equals(added.buffer)).toBe(true);

  // Non-owners see 'View members' with read-only roles; the owner row reads 'Owner'.
  await inviteeRoom.openVaultMenu(vaultName, 'View members');
  await expect(invitee.getByRole('heading', { name: 'View members' })).toBeVisible();
  await expect(invitee.getByTestId('member-row').filter({ hasText: ownerEmail }).getByText('Owner', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(invitee.getByRole('main').getByRole('combobox')).toHaveCount(0);
  await expect(invitee.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await shootBothWidths(invitee, 'view-members');

  // Revoke: choosing REVOKED opens the confirmation, which says what stays readable.
  await room.openVaultMenu(vaultName, 'Manage access');
  await page.getByRole('combobox', { name: `Role of ${inviteeEmail}` }).selectOption('REVOKED');
  const dialog = page.getByRole('dialog', { name: 'Revoke access' });
  await expect(dialog.getByText('What they already had stays readable to them', { exact: false })).toBeVisible();
  await shootBothWidths(page, 'revoke-confirmation');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Access revoked.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('member-row').filter({ hasText: inviteeEmail }).getByText('Access revoked')).toBeVisible();

  // The vault leaves the revoked member's list; with no vault left, the list goes on to create one
  // (spec 000 section 2), at once if the device already heard of the revoke, else when it does.
  await invitee.goto('/vaults/active');
  await expect(invitee).toHaveURL(/\/create-vault\/setup$/, { timeout: 30_000 });
  await expect(invitee.getByText(vaultName)).toHaveCount(0);

  // The old invitation link now says the invite was revoked.
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'Your invite was revoked' })).toBeVisible({ timeout: 30_000 });
  await expect(invitee.getByText('The invite to this vault was revoked. Contact the person who originally invited you for more information.')).toBeVisible();
  await shootBothWidths(invitee, 'reject-invite');
  await invitee.getByRole('button', { name: 'View your vaults' }).click();
  // With no vault left, the vault list sends the invitee on to create one (spec 000 section 2).
  await expect(invitee).toHaveURL(/\/create-vault\/setup$/);
  await other.close();
});
