import type { Locator, Page } from '@playwright/test';
import { gradientPng } from '../fixtures/gradientPng';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

/** The element's box, asserted to lie within the window's width and to be at least `minWidth` wide. */
async function expectWithinWindow(page: Page, element: Locator, minWidth: number): Promise<void> {
  await expect(element).toBeVisible();
  const box = (await element.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x, 'starts inside the window').toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, 'ends inside the window').toBeLessThanOrEqual(width);
  expect(box.width, 'wide enough to read').toBeGreaterThanOrEqual(minWidth);
}

// Issue 26: at 375 px the viewer's buttons squeezed the file's name to nothing. The name keeps its
// room (two lines at most, the rest in its title) and every button stays on screen.
test('the file viewer keeps a long name readable beside its buttons, on a phone too', async ({ page, shoot }, testInfo) => {
  test.setTimeout(150_000);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'viewer-title'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Survey ${Date.now().toString(36)}`, { storage: 'Cloud storage', privacy: 'Private' });
  const longName = '2026-07-14 North ridge survey, second camp at dawn (raw export, final crop).png';
  await room.pickFiles([
    { name: longName, mimeType: 'image/png', buffer: gradientPng(320, 200) },
    { name: 'camp.txt', mimeType: 'text/plain', buffer: Buffer.from('Second camp at 3,100 m.') },
  ]);
  await room.confirmUpload();
  await expect(page.getByTestId('pending-upload')).toHaveCount(0, { timeout: 60_000 });

  await room.row(longName).getByRole('link', { name: longName }).click();
  const title = page.getByRole('heading', { level: 1, name: longName });
  await expect(page.getByRole('img', { name: longName })).toBeVisible({ timeout: 30_000 });
  await expectWithinWindow(page, title, 150);
  await expect(title).toHaveAttribute('title', longName);
  for (const name of ['Previous file', 'Next file', `Download ${longName}`, `Actions for ${longName}`]) {
    await expectWithinWindow(page, page.getByRole('button', { name, exact: true }), 20);
  }
  await shoot('viewer-long-name', { fullPage: false });

  // The buttons still work from there.
  await page.getByRole('button', { name: 'Next file', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'camp.txt' })).toBeVisible();
});
