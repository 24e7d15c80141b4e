/**
 * An airdrop link's passwordless session ends when it should (spec 001 sections 4-5, issue
 * acceptance): the link is made for today, opened in a fresh browser, and then the server is
 * restarted on the same DATA_DIR with its clock two days ahead (CAIRN_TEST_CLOCK_OFFSET_MS), past
 * the end of that day. The page left open signs itself out without a reload, and the link no
 * longer opens. The server is this spec's own (KillableServer), since it is restarted.
 */
import type { Browser, Page } from '@playwright/test';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { KillableServer } from './KillableServer';
import { STRONG_PASSWORD, expect, localDay, test, uniqueEmail } from './fixtures';

/** Thirty ports above the config's server: 19630 and 19631 when E2E_PORT is 19600. */
const BASE_PORT = Number(process.env.E2E_PORT ?? 18_080);
const server = new KillableServer(BASE_PORT + 30, BASE_PORT + 31);
const TWO_DAYS_MS = 2 * 24 * 60 * 60 * 1000;
const VIEWPORT = { width: 1280, height: 800 };

/**
 * A fixed-offset zone where it is now about 10:00, so the link made for "today" still has about
 * 14 hours to run whatever the hour on this machine (at 23:59 here it would end mid-test), and two
 * days ahead is past its end. Etc/GMT-N is UTC+N (the sign is POSIX's).
 */
function morningTimezone(): string {
  const offset = ((10 - new Date().getUTCHours() + 36) % 24) - 12;
  if (offset === 0) return 'UTC';
  return offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

function newContext(browser: Browser, timezoneId: string) {
  return browser.newContext({ baseURL: server.url, viewport: VIEWPORT, timezoneId });
}

/** Rows in the app's IndexedDB ('cairn'), every store: what this browser keeps of its accounts. */
function storedRows(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('cairn');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const names = [...db.objectStoreNames];
    if (names.length === 0) return 0;
    const transaction = db.transaction(names, 'readonly');
    const counts = await Promise.all(
      names.map(
        (name) =>
          new Promise<number>((resolve, reject) => {
            const request = transaction.objectStore(name).count();
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          }),
      ),
    );
    db.close();
    return counts.reduce((sum, count) => sum + count, 0);
  });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await server.start();
});

test.afterAll(async () => {
  await server.stop();
});

test("an airdrop link's passwordless session ends at the end of its day: the open page signs out and says so, and the link has expired", async ({
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const timezoneId = morningTimezone();
  const vaultName = `Expiring drop ${Date.now().toString(36)}`;

  // The owner makes a vault and an airdrop link that ends today.
  const ownerContext = await newContext(browser, timezoneId);
  const owner = await ownerContext.newPage();
  await new SignupFlow(owner).createAccount(server.dataDir, uniqueEmail(testInfo, 'expiry-owner'), STRONG_PASSWORD);
  const ownerRoom = new VaultRoom(owner);
  await ownerRoom.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  await ownerRoom.openVaultMenu(vaultName, 'Invite to vault');
  await owner.getByRole('switch', { name: 'Invite with an airdrop link' }).check();
  const form = owner.getByTestId('airdrop-invite');
  await form.getByRole('textbox', { name: 'Name' }).fill('Day visitor');
  const date = form.getByRole('textbox', { name: 'Expiry date' });
  await date.fill(await localDay(owner, 0));
  await date.blur();
  await expect(form.getByText('Date cannot be in the past.')).toHaveCount(0);
  await form.getByRole('button', { name: 'Generate link' }).click();
  const linkBox = form.getByTestId('airdrop-link');
  await expect(linkBox).toBeVisible({ timeout: 30_000 });
  const link = (await linkBox.textContent())?.trim() ?? '';
  expect(link).toMatch(/\/login\?wallet=[A-Za-z0-9_-]{22}$/);
  await ownerContext.close();

  // A fresh browser opens it: a passwordless session with the vault in it.
  const guestContext = await newContext(browser, timezoneId);
  const guest = await guestContext.newPage();
  await guest.goto(link);
  await expect(guest).toHaveURL(/\/vaults\/active$/, { timeout: 60_000 });
  await guest.getByText(vaultName).first().click();
  await expect(guest).toHaveURL(/\/vaults\/active\/[A-Za-z0-9_-]+/);
  await expect(guest.getByText(vaultName).first()).toBeVisible({ timeout: 30_000 });
  expect(await storedRows(guest)).toBeGreaterThan(0);

  // The day ends: the server comes back two days later by its clock. The page stays open, untouched.
  await server.kill();
  await server.start({ CAIRN_TEST_CLOCK_OFFSET_MS: String(TWO_DAYS_MS) });
  // Its realtime socket closed with the server, so its next poll comes within the 10 s interval.
  await expect(guest.getByRole('alert')).toContainText('Your access through this link has ended.', { timeout: 40_000 });
  await expect(guest).toHaveURL(/\/login/);
  await expect(guest.getByText(vaultName)).toHaveCount(0);
  // Signed out as log-out does: nothing of the account is left on the device.
  await expect.poll(() => storedRows(guest), { timeout: 10_000 }).toBe(0);
  await guestContext.close();

  // Opened again, in a browser that never saw it, the link has expired.
  const laterContext = await newContext(browser, timezoneId);
  const later = await laterContext.newPage();
  await later.goto(link);
  await expect(later.getByRole('alert')).toContainText('This link has expired.', { timeout: 60_000 });
  await expect(later).toHaveURL(/\/login/);
  expect(later.url()).not.toContain('wallet');
  await laterContext.close();
});
