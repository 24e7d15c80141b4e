/**
 * The invite form's answers and the invitation's other ends (spec 001 sections 2, 4-6 and 8):
 * a person without an account, one already invited, the member-limit upgrade dialog on 403
 * (this spec's own server runs with MEMBER_LIMIT=3, hence a KillableServer), a viewer who does
 * not see pending members, the safety number the member and the owner both see, resend invite,
 * an invitee who rejects the terms (which frees a place) and revoke invite.
 */
import type { Browser, Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { countMails, waitForMailLink } from './mailbox';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { KillableServer } from './KillableServer';
import { STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

/** Thirty-five ports above the config's server (airdropExpiry.spec.ts takes +30 and +31). */
const BASE_PORT = Number(process.env.E2E_PORT ?? 18_080);
const server = new KillableServer(BASE_PORT + 35, BASE_PORT + 36, { MEMBER_LIMIT: '3' });
const VIEWPORT = { width: 1280, height: 800 };
const SCREENSHOT_DIR = join(process.cwd(), '.tmp', 'screenshots');
const SAFETY_NUMBER = /^\d{5} \d{5} \d{5} \d{5} \d{5} \d{5}$/;

async function shootBothWidths(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `invitations-${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `invitations-${name}-375.png`), fullPage: true });
  await page.setViewportSize(VIEWPORT);
}

async function signedUp(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: VIEWPORT });
  const page = await context.newPage();
  await new SignupFlow(page).createAccount(server.dataDir, email, STRONG_PASSWORD);
  return page;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await server.start();
});

test.afterAll(async () => {
  await server.stop();
});

test('invitations: no account, already invited, the member limit dialog; a viewer sees no pending member; resend; the terms rejected; revoke invite', async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  const viewerEmail = uniqueEmail(testInfo, 'inv-viewer');
  const rejecterEmail = uniqueEmail(testInfo, 'inv-rejecter');
  const extraEmail = uniqueEmail(testInfo, 'inv-extra');
  const vaultName = `Survey maps ${Date.now().toString(36)}`;

  const viewer = await signedUp(browser, viewerEmail);
  const rejecter = await signedUp(browser, rejecterEmail);
  await (await signedUp(browser, extraEmail)).context().close();
  const owner = await signedUp(browser, uniqueEmail(testInfo, 'inv-owner'));
  const room = new VaultRoom(owner);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private', terms: 'Maps stay inside the survey team.' });
  const vaultUrl = owner.url();

  // A person with no account: the row says an account is needed; the other row is sent.
  await room.openVaultMenu(vaultName, 'Invite to vault');
  const email = (n: number) => owner.getByRole('textbox', { name: `E-mail ${n}` });
  const send = owner.getByRole('button', { name: 'Send' });
  await email(1).fill(viewerEmail);
  const nobody = `nobody-${Date.now().toString(36)}@example.com`;
  await email(2).fill(nobody);
  await send.click();
  await expect(owner.getByText('Invitation sent.')).toBeVisible({ timeout: 30_000 });
  await expect(owner.getByText('There is no Cairn account with this e-mail. Only people with a Cairn account can be invited.')).toBeVisible();
  // Only the failed row stays, with a blank one for the next e-mail.
  await expect(email(1)).toHaveValue(nobody);
  await expect(email(2)).toHaveValue('');
  await shootBothWidths(owner, 'no-account');

  // The same person again: 'This person has already been invited.' (a vault at 2 of 3 members).
  await email(1).fill(viewerEmail);
  await expect(owner.getByText('There is no Cairn account with this e-mail.', { exact: false })).toHaveCount(0);
  await send.click();
  await expect(owner.getByText('This person has already been invited.')).toBeVisible({ timeout: 30_000 });

  // A third member fits the limit; the form is done and goes back to the vault.
  await email(1).fill(rejecterEmail);
  await owner.getByRole('combobox', { name: 'Role 1' }).selectOption('CONTRIBUTOR');
  await send.click();
  await expect(owner).toHaveURL(/\/assets$/, { timeout: 30_000 });

  // A fourth is past MEMBER_LIMIT: the server answers 403 and the upgrade dialog opens; nothing is sent.
  const mailsBefore = countMails(server.dataDir, extraEmail);
  await room.openVaultMenu(vaultName, 'Invite to vault');
  await email(1).fill(extraEmail);
  await send.click();
  const limit = owner.getByRole('dialog', { name: "You've hit the member limit" });
  await expect(limit).toBeVisible({ timeout: 30_000 });
  await expect(limit.getByRole('button', { name: 'Upgrade' })).toBeVisible();
  await shootBothWidths(owner, 'member-limit');
  await limit.getByRole('button', { name: 'Cancel' }).click();
  await expect(limit).toHaveCount(0);
  await expect(email(1)).toHaveValue(extraEmail);
  expect(countMails(server.dataDir, extraEmail)).toBe(mailsBefore);

  // The viewer accepts; their member list shows the owner and themselves, not the pending invitee.
  await viewer.goto(await waitForMailLink(server.dataDir, viewerEmail, '/invite?membershipId='));
  await expect(viewer.getByRole('heading', { name: 'Terms of access' })).toBeVisible({ timeout: 30_000 });
  await viewer.getByRole('checkbox', { name: 'By checking this box you are agreeing to digitally sign and accept the terms.' }).check();
  await viewer.getByRole('button', { name: 'Accept terms' }).click();
  await expect(viewer).toHaveURL(/\/assets$/, { timeout: 30_000 });
  const viewerRoom = new VaultRoom(viewer);
  await viewerRoom.skipTourIfShown();
  await viewerRoom.openVaultMenu(vaultName, 'View members');
  await expect(viewer.getByRole('heading', { name: 'View members' })).toBeVisible();
  const ownRow = viewer.getByTestId('member-row').filter({ hasText: viewerEmail });
  await expect(ownRow.getByText('(you)')).toBeVisible({ timeout: 15_000 });
  await expect(viewer.getByTestId('member-row')).toHaveCount(2);
  await expect(viewer.getByTestId('member-row').filter({ hasText: rejecterEmail })).toHaveCount(0);
  const ownNumber = (await ownRow.getByText(SAFETY_NUMBER).textContent())?.trim();
  await shootBothWidths(viewer, 'viewer-members');

  // The owner sees the pending invitee, the viewer's safety number as the viewer does, and resends.
  await owner.goto(vaultUrl);
  await room.openVaultMenu(vaultName, 'Manage access');
  const pendingRow = owner.getByTestId('member-row').filter({ hasText: rejecterEmail });
  await expect(pendingRow.getByText('Invited, terms not accepted yet')).toBeVisible({ timeout: 15_000 });
  await expect(owner.getByTestId('member-row').filter({ hasText: viewerEmail }).getByText(SAFETY_NUMBER)).toHaveText(ownNumber ?? 'missing');
  const resentBefore = countMails(server.dataDir, rejecterEmail);
  await pendingRow.getByRole('button', { name: 'Resend invite' }).click();
  await expect(pendingRow.getByText('Resent!')).toBeVisible();
  await expect.poll(() => countMails(server.dataDir, rejecterEmail), { timeout: 15_000 }).toBe(resentBefore + 1);

  // The invitee rejects the terms: the reject page says the inviter was told; the owner sees it.
  await rejecter.goto(await waitForMailLink(server.dataDir, rejecterEmail, '/invite?membershipId='));
  await expect(rejecter.getByText('You can upload files, request data and delete files.')).toBeVisible({ timeout: 30_000 });
  await rejecter.getByRole('button', { name: 'Reject terms' }).click();
  await expect(rejecter.getByRole('heading', { name: 'Terms of access rejected' })).toBeVisible({ timeout: 30_000 });
  await expect(rejecter.getByText('You rejected the terms of access to this vault. The person who invited you has been told of your rejection.')).toBeVisible();
  await shootBothWidths(rejecter, 'rejected');
  await rejecter.getByRole('button', { name: 'View your vaults' }).click();
  await expect(rejecter).not.toHaveURL(/reject-invite/);
  await owner.reload();
  await expect(pendingRow.getByText('Rejected the invitation')).toBeVisible({ timeout: 15_000 });

  // The rejection freed a place: the fourth person is invited now, and the owner revokes the invite.
  await owner.goto(vaultUrl);
  await room.openVaultMenu(vaultName, 'Invite to vault');
  await email(1).fill(extraEmail);
  await send.click();
  await expect(owner).toHaveURL(/\/assets$/, { timeout: 30_000 });
  await room.openVaultMenu(vaultName, 'Manage access');
  const extraRow = owner.getByTestId('member-row').filter({ hasText: extraEmail });
  // Choosing Revoked in the role selector asks first; cancelled, nothing changes and nothing is to save.
  const extraRole = owner.getByRole('combobox', { name: `Role of ${extraEmail}` });
  await extraRole.selectOption('REVOKED', { timeout: 15_000 });
  const revoke = owner.getByRole('dialog', { name: 'Revoke invite' });
  await revoke.getByRole('button', { name: 'Cancel' }).click();
  await expect(revoke).toHaveCount(0);
  await expect(extraRole).toHaveValue('VIEWER');
  await expect(owner.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  await extraRow.getByRole('button', { name: 'Revoke invite' }).click();
  await expect(revoke.getByText('They will no longer be able to open this vault', { exact: false })).toBeVisible();
  await revoke.getByRole('button', { name: 'Revoke' }).click();
  await expect(owner.getByText('Invite revoked.')).toBeVisible({ timeout: 30_000 });
  await expect(extraRow.getByText('Access revoked')).toBeVisible();
  await expect(extraRow.getByRole('button', { name: 'Revoke invite' })).toHaveCount(0);
});
