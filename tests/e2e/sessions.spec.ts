import { mkdirSync } from 'node:fs';
import { describeUserAgent } from '../../src/domain/describeUserAgent';
import { LoginPage } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

const SCREENS = '.tmp/screens';

// docs/SYNC_SPEC.md R80 (issue 26): Account > Security lists the signed-in devices, and 'Log out
// other devices' sends every other device of the account back to the login page.
test('[R80] sessions: A sees both devices and logs out the other; B lands on the login page', async ({ page, browser }, testInfo) => {
  test.setTimeout(150_000);
  const email = uniqueEmail(testInfo, 'sessions');
  await new SignupFlow(page).createAccount(DATA_DIR, email, STRONG_PASSWORD);

  // Device B signs in with the same account and stays on a signed-in page.
  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const otherPage = await other.newPage();
  const login = new LoginPage(otherPage);
  await login.open();
  await login.submit(email, STRONG_PASSWORD, true);
  await expect(otherPage).toHaveURL(/\/create-vault\/setup$/, { timeout: 30_000 });

  // Device A: Account > Security lists both, this one marked.
  await page.goto('/account/security');
  const devices = page.getByRole('list', { name: 'Signed-in devices' });
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  // Both contexts carry the project's browser (e.g. 'Chrome on Windows' for Desktop Chrome).
  const device = describeUserAgent(await page.evaluate(() => navigator.userAgent));
  expect(device).toMatch(/^Chrom(e|ium) on /);
  await expect(devices.getByRole('listitem', { name: `${device} (this device)` })).toBeVisible();
  await expect(devices.getByRole('listitem', { name: device, exact: true })).toContainText('Last active');
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: `${SCREENS}/${testInfo.project.name}-sessions.png`, fullPage: true });

  await page.getByRole('button', { name: 'Log out other devices' }).click();
  await expect(page.getByText('1 other device was logged out.')).toBeVisible();
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Log out other devices' })).toBeDisabled();

  // Device B is sent to the login page, told why, without a reload.
  await expect(otherPage).toHaveURL(/\/login/, { timeout: 40_000 });
  await expect(otherPage.getByText('You were logged out of this device. Log in again to continue.')).toBeVisible();
  // A is still signed in.
  await page.reload();
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await other.close();
});
