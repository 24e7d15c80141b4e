import { MAINTENANCE_URL, expect, test } from './fixtures';

test('an unknown path shows the 404 page with a way back', async ({ page, shoot }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText("Oh dear, something's wrong!")).toBeVisible();
  await shoot('404');
  await page.getByRole('link', { name: 'Return to a secure context' }).or(page.getByRole('button', { name: 'Return to a secure context' })).click();
  // Signed out, the protected vault list sends the user to log in, keeping where they were going.
  await expect(page).toHaveURL(/\/login/);
});

test('a signed-out visitor of a protected page is sent to log in and the origin is kept', async ({ page }) => {
  await page.goto('/account/security');
  await expect(page).toHaveURL(/\/login\?redirect=%2Faccount%2Fsecurity/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
});

test('the maintenance flag sends protected pages to the maintenance page', async ({ page, shoot }) => {
  await page.goto(`${MAINTENANCE_URL}/vaults/active`);
  await expect(page.getByText("We'll be back soon!")).toBeVisible();
  await expect(page.getByText(/currently down for scheduled maintenance/)).toBeVisible();
  await shoot('maintenance');
});
