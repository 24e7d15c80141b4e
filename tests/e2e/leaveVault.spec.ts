import type { Page } from '@playwright/test';
import { waitForMailLink } from './mailbox';
import { SignupFlow } from './pages/SignupFlow';
import { pendingMark, VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

/** Opens one of the vault menu's member entries and waits for its page. */
async function openMemberMenu(page: Page, vaultName: string, entry: string): Promise<void> {
  await new VaultRoom(page).openVaultMenu(vaultName, entry);
  await expect(page.getByRole('heading', { name: entry })).toBeVisible();
}

/** Opens the e-mailed invitation; the vault has no terms: 'Accept invitation' (spec 001 section 2, SYNC_SPEC R72). */
async function acceptInvitation(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('button', { name: 'Accept invitation' }).click({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/vaults\/active\/[A-Za-z0-9_-]+\/assets$/, { timeout: 30_000 });
  await expect(page.getByText('Access accepted. The vault is now in your list.')).toBeVisible();
}

function membershipIdOf(link: string): string {
  const id = new URL(link).searchParams.get('membershipId');
  if (!id) throw new Error(`No membership id in ${link}`);
  return id;
}

// Spec 001 sections 2, 4-6, spec 000 section 6, DESIGN.md section 3, SYNC_SPEC R18 and R20.
test('leave vault: a second owner leaves; the vault leaves their list, the owner device rotates the key by itself and new content lands; the confirm page by status', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  const ownerEmail = uniqueEmail(testInfo, 'owner');
  const coOwnerEmail = uniqueEmail(testInfo, 'coowner');
  const contributorEmail = uniqueEmail(testInfo, 'contributor');
  const stamp = Date.now().toString(36);
  const vaultName = `Survey camp ${stamp}`;
  const coOwnVault = `Own notes ${stamp}`;
  const report = { name: 'after-the-leave.txt', mimeType: 'text/plain', buffer: Buffer.from(`Rotated and written, ${Date.now()}.\n`) };

  // B (to be a second owner) has an account and a vault of their own, so their list stays in view.
  const coOwnerContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const coOwner = await coOwnerContext.newPage();
  await new SignupFlow(coOwner).createAccount(DATA_DIR, coOwnerEmail, STRONG_PASSWORD);
  const coOwnerRoom = new VaultRoom(coOwner);
  await coOwnerRoom.createVault(coOwnVault, { storage: 'Cloud storage', privacy: 'Private' });

  // C (to be a contributor) has an account.
  const contributorContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined, acceptDownloads: true });
  const contributor = await contributorContext.newPage();
  await new SignupFlow(contributor).createAccount(DATA_DIR, contributorEmail, STRONG_PASSWORD);

  // A's private vault, with no terms of access.
  await new SignupFlow(page).createAccount(DATA_DIR, ownerEmail, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  await room.createFolder('Before the leave');
  const vaultUrl = page.url();

  // A invites B as OWNER and C as CONTRIBUTOR.
  await openMemberMenu(page, vaultName, 'Invite to vault');
  await page.getByRole('textbox', { name: 'E-mail 1' }).fill(coOwnerEmail);
  await page.getByRole('combobox', { name: 'Role 1' }).selectOption('OWNER');
  await page.getByRole('textbox', { name: 'E-mail 2' }).fill(contributorEmail);
  await page.getByRole('combobox', { name: 'Role 2' }).selectOption('CONTRIBUTOR');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('2 invitations sent.')).toBeVisible();
  await expect(page).toHaveURL(vaultUrl);

  // An owner who has not accepted yet is not the other owner 'Leave vault' needs.
  await openMemberMenu(page, vaultName, 'Manage access');
  const coOwnerRow = page.getByTestId('member-row').filter({ hasText: coOwnerEmail });
  await expect(coOwnerRow.getByText('Invited, terms not accepted yet')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Leave vault' })).toHaveCount(0);

  // Confirm page, PENDING: access was confirmed with the invitation; the note shows, then the vault files.
  const coOwnerLink = await waitForMailLink(DATA_DIR, coOwnerEmail, '/invite?membershipId=');
  const contributorLink = await waitForMailLink(DATA_DIR, contributorEmail, '/invite?membershipId=');
  const coOwnerMembership = membershipIdOf(coOwnerLink);
  await page.goto(`/confirm?membershipId=${coOwnerMembership}`);
  await expect(page.getByRole('heading', { name: 'Confirm access' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Access is pending: you have already confirmed it' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirm access' })).toHaveCount(0);
  await expect(page).toHaveURL(vaultUrl, { timeout: 15_000 });
  await expect(room.row('Before the leave')).toBeVisible();

  // B and C accept (no terms: the invitation alone).
  await acceptInvitation(coOwner, coOwnerLink);
  await expect(coOwnerRoom.row('Before the leave')).toBeVisible({ timeout: 30_000 });
  await acceptInvitation(contributor, contributorLink);
  const contributorRoom = new VaultRoom(contributor);
  await contributorRoom.skipTourIfShown();
  await expect(contributorRoom.row('Before the leave')).toBeVisible({ timeout: 30_000 });

  // Confirm page, ACCEPTED: a note, and the page stays.
  await page.goto(`/confirm?membershipId=${membershipIdOf(contributorLink)}`);
  await expect(page.getByRole('status').filter({ hasText: `${contributorEmail} has accepted the invitation and is a member of this vault.` })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('button', { name: 'Confirm access' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Open the vault' })).toBeVisible();

  // Spec 000 section 6: 'Leave vault shows only if another OWNER exists'. For a CONTRIBUTOR every
  // accepted owner is another owner, and a vault always keeps one: a contributor may always leave.
  await openMemberMenu(contributor, vaultName, 'View members');
  await expect(contributor.getByTestId('member-row').filter({ hasText: ownerEmail })).toBeVisible({ timeout: 15_000 });
  await expect(contributor.getByRole('button', { name: 'Leave vault' })).toBeVisible();

  // With B accepted as OWNER, both owners are offered 'Leave vault'.
  await page.goto(vaultUrl);
  await openMemberMenu(page, vaultName, 'Manage access');
  await expect(page.getByRole('combobox', { name: `Role of ${coOwnerEmail}` })).toHaveValue('OWNER', { timeout: 15_000 });
  await expect(coOwnerRow.getByText('Invited, terms not accepted yet')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Leave vault' })).toBeVisible();
  await openMemberMenu(coOwner, vaultName, 'Manage access');
  const leave = coOwner.getByRole('button', { name: 'Leave vault' });
  await expect(leave).toBeVisible({ timeout: 15_000 });

  // B leaves through the confirmation; the vault leaves B's list, B's own vault stays.
  await leave.click();
  const dialog = coOwner.getByRole('dialog', { name: 'Leave vault' });
  await expect(dialog.getByText('It disappears from your vaults, and an owner has to invite you again', { exact: false })).toBeVisible();
  await dialog.getByRole('button', { name: 'Leave vault' }).click();
  await expect(coOwner.getByText(`You left ${vaultName}.`)).toBeVisible({ timeout: 30_000 });
  await expect(coOwner).toHaveURL(/\/vaults\/active$/);
  await expect(coOwner.getByRole('row').filter({ hasText: coOwnVault })).toBeVisible({ timeout: 15_000 });
  await expect(coOwner.getByText(vaultName)).toHaveCount(0);
  await coOwner.reload();
  await expect(coOwner.getByRole('row').filter({ hasText: coOwnVault })).toBeVisible({ timeout: 30_000 });
  await expect(coOwner.getByText(vaultName)).toHaveCount(0);

  // A's device rotates the key by itself: a new folder and an upload land (held with
  // KEY_ROTATION_PENDING otherwise, their rows would keep 'Syncing…').
  await page.goto(vaultUrl);
  await room.createFolder('After the leave');
  await room.pickFiles([report]);
  await room.confirmUpload();
  await expect(room.row(report.name)).toBeVisible({ timeout: 30_000 });
  await room.uploadBox().getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('pending-upload')).toHaveCount(0, { timeout: 30_000 });
  await expect(pendingMark(page.locator('main'))).toHaveCount(0, { timeout: 30_000 });

  // C, still a member, gets the new key and reads both, byte for byte.
  await contributor.goto(vaultUrl);
  await expect(contributorRoom.row('After the leave')).toBeVisible({ timeout: 30_000 });
  await expect(contributorRoom.row(report.name)).toBeVisible({ timeout: 30_000 });
  expect((await contributorRoom.download(report.name)).equals(report.buffer)).toBe(true);

  // A's manage access: B is no longer a member, and A, the only owner left, is not offered to leave.
  await openMemberMenu(page, vaultName, 'Manage access');
  const leftRow = page.getByTestId('member-row').filter({ hasText: coOwnerEmail });
  await expect(leftRow.getByText('Access revoked')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('combobox', { name: `Role of ${coOwnerEmail}` })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Leave vault' })).toHaveCount(0);

  // Confirm page, REVOKED: a note, and no confirm button.
  await page.goto(`/confirm?membershipId=${coOwnerMembership}`);
  await expect(page.getByRole('status').filter({ hasText: `The invite of ${coOwnerEmail} was revoked. They cannot open this vault.` })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('button', { name: 'Confirm access' })).toHaveCount(0);
  await page.waitForTimeout(2_500);
  await expect(page).toHaveURL(/\/confirm\?membershipId=/);

  await coOwnerContext.close();
  await contributorContext.close();
});
