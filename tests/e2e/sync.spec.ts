import { LoginPage } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { pendingMark, VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

// docs/SYNC_SPEC.md: R3 (pokes), R5 (reconnect), R7-R10 (the outbox), R12 (the visible state).
test('sync: a second device sees changes within seconds; work done offline waits, survives a reload and is sent on reconnect', async ({
  page,
  browser,
  shoot,
}, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail(testInfo, 'sync');
  const vaultName = `Basecamp ${Date.now().toString(36)}`;
  await new SignupFlow(page).createAccount(DATA_DIR, email, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  const indicator = page.locator('[data-sync-status]').filter({ visible: true });
  await expect(indicator).toHaveAttribute('data-sync-status', 'idle', { timeout: 30_000 });

  // A second device, its socket open.
  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const otherPage = await other.newPage();
  const login = new LoginPage(otherPage);
  await login.open();
  await login.submit(email, STRONG_PASSWORD);
  await otherPage.getByText(vaultName).filter({ visible: true }).first().click();
  const otherRoom = new VaultRoom(otherPage);
  const otherIndicator = otherPage.locator('[data-sync-status]').filter({ visible: true });
  await expect(otherIndicator).toHaveAttribute('data-realtime', 'open', { timeout: 30_000 });

  // R3: a poke brings the change, far inside the 60 s safety poll an open socket allows.
  await room.createFolder('Ridge');
  await expect(otherRoom.row('Ridge')).toBeVisible({ timeout: 5_000 });

  // R7, R12: offline, a change shows at once as waiting, and the chrome says offline.
  await page.context().setOffline(true);
  await expect(indicator).toHaveAttribute('data-sync-status', 'offline');
  await expect(page.getByText("You're offline.", { exact: false })).toBeVisible();
  await room.createFolder('Offline notes');
  await expect(pendingMark(room.row('Offline notes'), 'Waiting to sync')).toBeVisible();
  await room.rowAction('Ridge', 'Rename');
  await page.getByRole('dialog').getByRole('textbox').fill('Ridge camp');
  await page.getByRole('dialog').getByRole('button', { name: /Rename|Save/ }).click();
  await expect(pendingMark(room.row('Ridge camp'), 'Waiting to sync')).toBeVisible();
  await expect(indicator).toHaveAttribute('aria-label', /2 changes are waiting to be sent/);
  // An upload picked offline waits too, and says so.
  const note = { name: 'written-offline.txt', mimeType: 'text/plain', buffer: Buffer.from('Notes written at the col, offline.') };
  await room.pickFiles([note]);
  await room.confirmUpload();
  await expect(page.getByText('Upload paused: waiting for the connection...')).toBeVisible({ timeout: 15_000 });
  // ...and shows at once in its folder, waiting.
  const pendingUpload = page.getByTestId('pending-upload').filter({ hasText: note.name });
  await expect(pendingUpload.getByText('Waiting to upload')).toBeVisible();
  await shoot('sync-offline');

  // Nothing reached the other device meanwhile.
  await otherPage.waitForTimeout(1_000);
  await expect(otherRoom.row('Offline notes')).toHaveCount(0);

  // R10: a reload while offline loses nothing that was queued.
  await page.reload();
  await expect(room.row('Offline notes')).toBeVisible({ timeout: 30_000 });
  await expect(pendingMark(room.row('Ridge camp'), 'Waiting to sync')).toBeVisible();

  // R5, R8: back online, the queue drains once, in order, and the other device gets both.
  await page.context().setOffline(false);
  await expect(otherRoom.row('Offline notes')).toBeVisible({ timeout: 20_000 });
  await expect(otherRoom.row('Ridge camp')).toBeVisible();
  await expect(otherRoom.row('Ridge')).toHaveCount(0);
  await expect(otherRoom.row(note.name)).toBeVisible({ timeout: 30_000 });
  await expect(room.row(note.name)).toBeVisible();
  await expect(page.getByTestId('pending-upload')).toHaveCount(0);
  expect((await otherRoom.download(note.name)).equals(note.buffer)).toBe(true);
  await expect(indicator).toHaveAttribute('data-sync-status', 'idle', { timeout: 20_000 });
  await expect(pendingMark(page.locator('main'))).toHaveCount(0);
  await expect(otherRoom.row('Offline notes')).toHaveCount(1);
  await other.close();
});
