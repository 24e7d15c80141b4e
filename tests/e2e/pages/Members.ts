import { expect, type Page } from '@playwright/test';
import { DATA_DIR } from '../fixtures';
import { waitForMailLink } from '../mailbox';
import { VaultRoom } from './VaultRoom';

export const TERMS_AGREEMENT = 'By checking this box you are agreeing to digitally sign and accept the terms.';

/**
 * The owner (on `owner`, inside the vault) invites `email` with `role` from the vault menu; the
 * member (on `member`, signed in) opens the e-mailed link, accepts the terms and lands in the vault.
 */
export async function inviteAndAccept(
  owner: Page,
  vaultName: string,
  member: Page,
  email: string,
  role: 'OWNER' | 'CONTRIBUTOR' | 'VIEWER',
): Promise<void> {
  await new VaultRoom(owner).openVaultMenu(vaultName, 'Invite to vault');
  await owner.getByRole('textbox', { name: 'E-mail 1' }).fill(email);
  await owner.getByRole('combobox', { name: 'Role 1' }).selectOption(role);
  await owner.getByRole('button', { name: 'Send' }).click();
  await expect(owner.getByText('Invitation sent.')).toBeVisible();
  const link = await waitForMailLink(DATA_DIR, email, '/invite?membershipId=');
  await member.goto(link);
  await expect(member.getByRole('heading', { name: 'Terms of access' })).toBeVisible({ timeout: 30_000 });
  await member.getByRole('checkbox', { name: TERMS_AGREEMENT }).check();
  await member.getByRole('button', { name: 'Accept terms' }).click();
  await expect(member).toHaveURL(/\/vaults\/active\/[A-Za-z0-9_-]+\/assets$/, { timeout: 30_000 });
  await new VaultRoom(member).skipTourIfShown();
}
