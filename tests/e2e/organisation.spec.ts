import type { Page } from '@playwright/test';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, shootBothWidths, test, uniqueEmail } from './fixtures';

// A 1x1 PNG: the organisation's logo.
const LOGO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** The vault list's row of `name` (the list syncs when it opens). */
async function vaultRow(page: Page, name: string) {
  await page.goto('/vaults/active');
  return page.getByRole('row').filter({ hasText: name });
}

// Issue 22, spec 001 sections 2-9 and spec 002 section 4: an organisation, its admins airdropped
// into vaults (R128, R129) and accepting by themselves (R131), a member revoked (R130).
test('organisation: an admin brands it, invites a member and an owner; the owner gets the admin vault, the admin gets the member vault, the revoked member loses the shared one', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(400_000);
  const stamp = Date.now().toString(36);
  const adminEmail = uniqueEmail(testInfo, 'org-admin');
  const ownerEmail = uniqueEmail(testInfo, 'org-owner');
  const memberEmail = uniqueEmail(testInfo, 'org-member');
  const adminVault = `Org plans ${stamp}`;
  const memberVault = `Member notes ${stamp}`;
  const secret = { name: 'budget.txt', mimeType: 'text/plain', buffer: Buffer.from(`Budget ${stamp}\n`) };

  const ownerPage = await (await browser.newContext({ viewport: page.viewportSize() ?? undefined, acceptDownloads: true })).newPage();
  const memberPage = await (await browser.newContext({ viewport: page.viewportSize() ?? undefined })).newPage();
  await new SignupFlow(ownerPage).createAccount(DATA_DIR, ownerEmail, STRONG_PASSWORD);
  await new SignupFlow(memberPage).createAccount(DATA_DIR, memberEmail, STRONG_PASSWORD);

  // The admin's private vault with a file, shared with the future member as a viewer.
  await new SignupFlow(page).createAccount(DATA_DIR, adminEmail, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(adminVault, { storage: 'Cloud storage', privacy: 'Private', terms: 'Team use only.' });
  await room.pickFiles([secret]);
  await room.confirmUpload();
  await expect(room.row(secret.name)).toBeVisible({ timeout: 30_000 });
  await room.uploadBox().getByRole('button', { name: 'Close' }).click();
  await room.openVaultMenu(adminVault, 'Invite to vault');
  await page.getByRole('textbox', { name: 'E-mail 1' }).fill(memberEmail);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Invitation sent.')).toBeVisible();
  const invitedRow = await vaultRow(memberPage, '(Invitation)');
  await expect(invitedRow).toBeVisible({ timeout: 30_000 });
  await invitedRow.getByRole('link').click();
  await memberPage.getByRole('checkbox', { name: 'By checking this box you are agreeing to digitally sign and accept the terms.' }).check();
  await memberPage.getByRole('button', { name: 'Accept terms' }).click();
  await expect(memberPage).toHaveURL(/\/vaults\/active\/[A-Za-z0-9_-]+\/assets$/, { timeout: 30_000 });
  await new VaultRoom(memberPage).skipTourIfShown();

  // The admin creates the organisation from the account menu: name, subdomain and logo are required.
  await page.goto('/account');
  await page.getByRole('link', { name: /Organisation/ }).click();
  await expect(page).toHaveURL(/\/account\/organisation\/details$/);
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await page.getByRole('textbox', { name: 'Organisation name' }).fill('Acme Field Team');
  await page.getByRole('textbox', { name: 'Subdomain' }).fill('acme-team');
  await page.getByRole('textbox', { name: 'Subdomain' }).blur();
  await expect(page.getByText('Letters and digits only, at most 63')).toBeVisible();
  const subdomain = `acme${stamp}`;
  await page.getByRole('textbox', { name: 'Subdomain' }).fill(subdomain);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Logo' }).click();
  await (await chooser).setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO });
  await expect(page.getByRole('img', { name: 'Logo preview' })).toHaveAttribute('src', /^data:image\/png;base64,/);
  await page.getByRole('textbox', { name: 'Primary colour' }).fill('#1c7ed6');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText('Organisation details saved')).toBeVisible();
  // The new subdomain is set up first: the form gives way to a notice naming the address.
  await expect(page.getByRole('status', { name: 'Subdomain setup' })).toContainText(`${subdomain}.`);
  await shootBothWidths(page, 'organisation-details');

  // Invite: the member as Member, the other as Owner (airdropped into the admin's vault).
  await page.getByRole('tab', { name: 'Invite' }).click();
  await page.getByRole('textbox', { name: 'E-mail 1' }).fill(memberEmail);
  await page.getByRole('textbox', { name: 'E-mail 2' }).fill(ownerEmail);
  await page.getByRole('combobox', { name: 'Role 2' }).selectOption('OWNER');
  await page.getByRole('button', { name: 'Send invitations' }).click();
  await expect(page.getByText('2 invitations sent.')).toBeVisible();
  await expect(page.getByText(`${ownerEmail} was added to 1 of your vaults as an owner.`)).toBeVisible({ timeout: 60_000 });
  await shootBothWidths(page, 'organisation-invite');

  // The owner's device accepts by itself: the admin's vault is theirs to open, the file decrypts.
  const ownerRow = await vaultRow(ownerPage, adminVault);
  await expect(ownerRow).toBeVisible({ timeout: 60_000 });
  await expect(ownerRow).not.toContainText('(Invitation)', { timeout: 60_000 });
  await ownerRow.getByRole('link', { name: adminVault }).click();
  const ownerRoom = new VaultRoom(ownerPage);
  await ownerRoom.skipTourIfShown();
  await expect(ownerRoom.row(secret.name)).toBeVisible({ timeout: 30_000 });
  expect((await ownerRoom.download(secret.name)).equals(secret.buffer)).toBe(true);
  await ownerPage.getByRole('button', { name: `Actions for ${adminVault}` }).click();
  await expect(ownerPage.getByRole('menuitem', { name: 'Invite to vault' })).toBeVisible();
  await ownerPage.keyboard.press('Escape');
  // An organisation invitee buys no plan: no Plans and billing in the avatar menu, and its address leads away.
  await ownerPage.getByRole('button', { name: /^Account menu for / }).click();
  await expect(ownerPage.getByRole('menuitem', { name: 'Account', exact: true })).toBeVisible();
  await expect(ownerPage.getByRole('menuitem', { name: 'Plans and billing' })).toHaveCount(0);
  await ownerPage.keyboard.press('Escape');
  await ownerPage.goto('/account/plans-and-payments/pricing-plans');
  await expect(ownerPage).toHaveURL(/\/account$/);
  // Invited as an owner they are an admin: the account menu lists Organisation for them too.
  await expect(ownerPage.getByRole('link', { name: /Organisation/ })).toBeVisible();

  // The member creates a vault: the organisation's admins are airdropped into it and the admin opens it.
  await new VaultRoom(memberPage).createVault(memberVault, { storage: 'Cloud storage', privacy: 'Private', tour: 'none' });
  await expect(memberPage.getByText(/organisation admins? (was|were) added to the vault/)).toBeVisible({ timeout: 60_000 });
  const adminRow = await vaultRow(page, memberVault);
  await expect(adminRow).toBeVisible({ timeout: 60_000 });
  await expect(adminRow).not.toContainText('(Invitation)', { timeout: 60_000 });
  await adminRow.getByRole('link', { name: memberVault }).click();
  await expect(page).toHaveURL(/\/vaults\/active\/[A-Za-z0-9_-]+\/assets$/);

  // The admin revokes the member: a confirmation, then out of the shared vault and of the organisation.
  await page.goto('/account/organisation/members');
  const saveChanges = page.getByRole('button', { name: 'Save changes' });
  await expect(saveChanges).toBeDisabled();
  await page.getByRole('combobox', { name: `Role of ${memberEmail}` }).selectOption('REVOKED');
  await saveChanges.click();
  const dialog = page.getByRole('dialog', { name: 'Revoke organisation member' });
  await expect(dialog).toContainText(memberEmail);
  await shootBothWidths(page, 'organisation-revoke');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText(`${memberEmail} was removed from 1 vault and from the organisation.`)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('combobox', { name: `Role of ${memberEmail}` })).toHaveCount(0);

  // The member no longer has the admin's vault; their own stays.
  await expect(await vaultRow(memberPage, memberVault)).toBeVisible({ timeout: 30_000 });
  await expect(memberPage.getByRole('row').filter({ hasText: adminVault })).toHaveCount(0, { timeout: 30_000 });
});
