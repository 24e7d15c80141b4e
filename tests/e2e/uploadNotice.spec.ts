import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';
import { getApiJson } from './pages/pageApi';

const PENDING_TEXT =
  "Your uploads are pending. It may take a while to commit files to the blockchain depending on their size. You can still view, rename and move files while they're pending.";
const DONT_SHOW = "Don't show me this message again.";

test('uploads to a permanent vault show the pending notice until the user asks not to see it again', async ({ page, shoot }, testInfo) => {
  test.setTimeout(150_000);
  const mark = `P${Date.now().toString(36)}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'notice'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Ledger ${mark}`, { storage: 'Permanent storage', privacy: 'Private' });

  // Zip unpacking is offered in a private vault too (issue 19: it unpacks on the device).
  await page.getByRole('button', { name: 'Add an asset' }).click();
  await expect(page.getByRole('menuitem', { name: 'Upload file' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Upload zip & unpack' })).toBeVisible();
  await page.keyboard.press('Escape');

  const upload = async (name: string) => {
    await room.pickFiles([{ name, mimeType: 'text/plain', buffer: Buffer.from(`${mark} ${name}`) }]);
    await room.confirmUpload();
    // Away from the notices (bottom on a desktop, top on a phone): hovering one pauses its timer.
    const viewport = page.viewportSize()!;
    await page.mouse.move(viewport.width / 2, viewport.height / 2);
  };
  const notice = page.getByRole('alert').filter({ hasText: PENDING_TEXT });

  // Left alone, the notice hides itself after 10 s and the choice is unchanged.
  await upload(`first-${mark}.txt`);
  await expect(notice).toBeVisible();
  const shownAt = Date.now();
  await expect(notice.getByRole('checkbox', { name: DONT_SHOW })).not.toBeChecked();
  await expect(room.row(`first-${mark}.txt`)).toBeVisible({ timeout: 30_000 });
  await shoot('upload-pending-notice');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot('upload-pending-notice-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(notice).toBeHidden({ timeout: 20_000 });
  // 10 s, not the 3 s of other snackbars (Playwright may see it appear up to a poll late).
  expect(Date.now() - shownAt).toBeGreaterThan(7_500);

  // Ticked and closed: notifyOnUpload is turned off.
  await upload(`second-${mark}.txt`);
  await expect(notice).toBeVisible();
  await notice.getByRole('checkbox', { name: DONT_SHOW }).check();
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/account/attributes') && r.request().method() === 'PATCH');
  await notice.getByRole('button', { name: 'Close the upload notice' }).click();
  const patch = await saved;
  expect(patch.request().postDataJSON()).toEqual({ notifyOnUpload: false });
  await expect(notice).toBeHidden();

  // It sticks, in this page and after a reload.
  await upload(`third-${mark}.txt`);
  await expect(room.row(`third-${mark}.txt`)).toBeVisible({ timeout: 30_000 });
  await expect(notice).toHaveCount(0);
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 30_000 });
  await page.reload();
  await expect(room.row(`third-${mark}.txt`)).toBeVisible({ timeout: 30_000 });
  await upload(`fourth-${mark}.txt`);
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 30_000 });
  await expect(notice).toHaveCount(0);
  expect((await getApiJson<{ user: { notifyOnUpload: boolean } }>(page, '/api/account')).user.notifyOnUpload).toBe(false);
});
