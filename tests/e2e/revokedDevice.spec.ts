import type { Page } from '@playwright/test';
import { inviteAndAccept } from './pages/Members';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom, type UploadFile } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

/** What the device keeps of vault `vaultId` at rest: its projected names, and its cached chunk URLs. */
function heldOnDevice(page: Page, vaultId: string): Promise<{ names: string[]; chunks: string[]; vaultName: string | null }> {
  return page.evaluate(async (id) => {
    const names = await new Promise<{ names: string[]; vaultName: string | null }>((resolve, reject) => {
      const open = indexedDB.open('cairn');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const tx = db.transaction(['nodes', 'vaults']);
        const nodes = tx.objectStore('nodes').getAll();
        const vaults = tx.objectStore('vaults').getAll();
        tx.oncomplete = () => {
          db.close();
          const ofVault = (nodes.result as Array<{ vaultId: string; name: string }>).filter((n) => n.vaultId === id).map((n) => n.name);
          const vault = (vaults.result as Array<{ vaultId: string; name: string }>).find((v) => v.vaultId === id);
          resolve({ names: ofVault, vaultName: vault?.name ?? null });
        };
        tx.onerror = () => reject(tx.error);
      };
    });
    const chunks: string[] = [];
    for (const cacheName of await caches.keys()) {
      for (const request of await (await caches.open(cacheName)).keys()) if (request.url.includes(`/vaults/${id}/`)) chunks.push(request.url);
    }
    return { ...names, chunks };
  }, vaultId);
}

// docs/SYNC_SPEC.md R56 (a device lets go of a vault whose membership ended), R15, R16.
test('revoked device: once revoked, the member device drops the vault; its room says access has ended, with no names, also after a reload and offline', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(360_000);
  const mark = Date.now().toString(36);
  const vaultName = `Board minutes ${mark}`;
  const folder = `Restructuring ${mark}`;
  const secret: UploadFile = { name: `layoffs-${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`Confidential ${mark}`) };
  const memberEmail = uniqueEmail(testInfo, 'revoked');

  // The member has an account (and a device: its own browser context).
  const memberContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const member = await memberContext.newPage();
  await new SignupFlow(member).createAccount(DATA_DIR, memberEmail, STRONG_PASSWORD);

  // The owner's private vault with a folder and a file.
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'owner'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private', terms: 'Board members only.' });
  await room.createFolder(folder);
  await room.pickFiles([secret]);
  await room.confirmUpload();
  await expect(room.uploadBox().getByText('Upload complete')).toBeVisible({ timeout: 60_000 });

  // The member accepts, sees both and opens the file (so its chunk is kept on the device, R15).
  await inviteAndAccept(page, vaultName, member, memberEmail, 'VIEWER');
  const memberRoom = new VaultRoom(member);
  await expect(memberRoom.row(secret.name)).toBeVisible({ timeout: 30_000 });
  await expect(memberRoom.row(folder)).toBeVisible();
  const roomUrl = member.url();
  const vaultId = /\/vaults\/active\/([A-Za-z0-9_-]+)\/assets$/.exec(roomUrl)![1]!;
  await memberRoom.row(secret.name).getByRole('link', { name: secret.name }).click();
  await expect(member.getByTestId('text-preview')).toHaveText(secret.buffer.toString(), { timeout: 30_000 });
  const fileUrl = member.url();
  const held = await heldOnDevice(member, vaultId);
  expect(held.names.sort()).toEqual([folder, secret.name].sort());
  expect(held.vaultName).toBe(vaultName);
  expect(held.chunks.length).toBeGreaterThan(0);
  // Search finds the file, the folder and the vault (the index follows about 5 s after a change, R32).
  const results = member.getByTestId('search-results-heading');
  const searchFor = async (term: string, heading: string) => {
    await member.goto(`/search-results?term=${encodeURIComponent(term)}`);
    await expect(results).toHaveText(heading, { timeout: 30_000 });
  };
  await searchFor('layoffs', '1 result');
  await searchFor('Restructuring', '1 result');
  await searchFor('Board minutes', '1 result');
  await member.goto(roomUrl);
  await expect(memberRoom.row(secret.name)).toBeVisible({ timeout: 30_000 });

  // The owner revokes the member.
  await room.openVaultMenu(vaultName, 'Manage access');
  await page.getByRole('combobox', { name: `Role of ${memberEmail}` }).selectOption('REVOKED');
  await page.getByRole('dialog', { name: 'Revoke access' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Access revoked.')).toBeVisible({ timeout: 30_000 });

  // The member's device, still in the room, hears of it and lets go of the vault.
  const ended = member.getByRole('heading', { name: 'Your access to this vault has ended.' });
  const expectAccessEnded = async () => {
    await expect(ended).toBeVisible({ timeout: 30_000 });
    for (const name of [vaultName, folder, secret.name]) await expect(member.getByText(name)).toHaveCount(0);
    await expect(member.getByRole('button', { name: 'View your vaults' }).or(member.getByRole('link', { name: 'View your vaults' }))).toBeVisible();
  };
  await expectAccessEnded();
  await expect.poll(async () => heldOnDevice(member, vaultId), { timeout: 30_000 }).toEqual({ names: [], chunks: [], vaultName: '' });
  await member.screenshot({ path: `.tmp/screenshots/${testInfo.project.name}-revoked-access-ended.png`, fullPage: true });

  // Search finds nothing of it any more.
  for (const term of ['layoffs', 'Restructuring', 'Board minutes']) await searchFor(term, '0 results');

  // Opening the room's address, or the file's, shows the same; so after a reload, and offline.
  await member.goto(roomUrl);
  await expectAccessEnded();
  await member.goto(fileUrl);
  await expectAccessEnded();
  await expect(member.getByTestId('text-preview')).toHaveCount(0);
  await member.reload();
  await expectAccessEnded();
  await member.goto(roomUrl);
  await memberContext.setOffline(true);
  await member.reload();
  await expectAccessEnded();
  await member.goto(fileUrl);
  await expectAccessEnded();
  await member.goto('/search-results?term=layoffs');
  await expect(results).toHaveText('0 results', { timeout: 30_000 });
  await memberContext.setOffline(false);

  // The way back: the vault list, which no longer lists the vault.
  await member.goto(roomUrl);
  await expectAccessEnded();
  await member.getByRole('button', { name: 'View your vaults' }).or(member.getByRole('link', { name: 'View your vaults' })).click();
  await expect(member).not.toHaveURL(new RegExp(vaultId));
  await expect(member.getByText(vaultName)).toHaveCount(0);
  await memberContext.close();
});
