import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';
import { getApiJson } from './pages/pageApi';

const PUBLIC_PERMANENT_STEPS = [
  'Welcome to your vault',
  'Permanent storage',
  'Add an asset',
  'Your files',
  'Vault menu',
  'Hidden files',
  'Mint Atomic NFTs',
  'Uploads keep going',
];

test('a new user gets the onboarding tour on their first vault, once', async ({ page, shoot }, testInfo) => {
  test.setTimeout(150_000);
  const isPhone = testInfo.project.name === 'phone';
  const vaultName = `Atlas ${Date.now().toString(36)}`;
  // Without motion each step is in place at once (driver.js ignores keys while a step animates).
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'tour'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Permanent storage', privacy: 'Public', tour: 'keep' });

  // A public permanent vault: 8 steps, Mint Atomic NFTs among them.
  const tour = room.tour;
  await room.expectTourStep('Welcome to your vault', { timeout: 15_000 });
  await expect(tour.getByText('Step 1 of 8')).toBeVisible();
  await expect(tour.getByRole('button', { name: 'Back' })).toBeDisabled();

  // The arrow keys move; Next is focused, so Enter moves too.
  await page.keyboard.press('ArrowRight');
  await room.expectTourStep('Permanent storage');
  await page.keyboard.press('ArrowLeft');
  await room.expectTourStep('Welcome to your vault');
  await expect(tour.getByRole('button', { name: 'Next' })).toBeFocused();
  await page.keyboard.press('Enter');
  await room.expectTourStep('Permanent storage');

  // Each step names its place; the button it talks about is the one highlighted.
  for (const [index, title] of PUBLIC_PERMANENT_STEPS.entries()) {
    if (index < 2) continue;
    await tour.getByRole('button', { name: 'Next' }).click();
    const step = await room.expectTourStep(title);
    await expect(step.getByText(`Step ${index + 1} of 8`)).toBeVisible();
    // At 375 px the popover stays on screen.
    const box = await step.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    if (title === 'Add an asset') {
      await expect(page.getByRole('button', { name: 'Add an asset' })).toHaveClass(/driver-active-element/);
      await shoot('tour-add-asset');
      await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
      await shoot('tour-add-asset-dark');
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    }
    if (title === 'Hidden files') {
      // The toolbar link on wide screens; on a phone it lives in the vault menu, which is shown.
      const target = isPhone ? page.getByRole('button', { name: `Actions for ${vaultName}` }) : page.getByRole('link', { name: 'Hidden files' });
      await expect(target).toHaveClass(/driver-active-element/);
    }
    if (title === 'Mint Atomic NFTs') await shoot('tour-nfts');
  }
  await expect(tour.getByRole('button', { name: 'Done' })).toBeVisible();

  // Esc closes it (and stays in the vault: Esc alone would go back to the vault list).
  await tour.getByRole('button', { name: 'Back' }).click();
  await room.expectTourStep('Mint Atomic NFTs');
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/account/attributes') && r.request().method() === 'PATCH');
  await page.keyboard.press('Escape');
  expect((await saved).ok()).toBe(true);
  await expect(tour).toBeHidden();
  await expect(page).toHaveURL(/\/assets$/);
  expect((await getApiJson<{ user: { onboarding: boolean } }>(page, '/api/account')).user.onboarding).toBe(false);

  // After a reload the vault opens without it.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Add an asset' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Add your first file')).toBeVisible();
  // The tour starts 0.4 s after the list loads; give it well over that to prove it does not.
  await page.waitForTimeout(2_000);
  await expect(tour).toHaveCount(0);
});
