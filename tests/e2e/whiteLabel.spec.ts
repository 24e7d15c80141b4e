/**
 * Issue 22, white-label by subdomain (spec 000 section 1; spec 001 sections 2, 4 and 7; SYNC_SPEC
 * R125, R135): an admin gives the organisation a subdomain and a logo; the details page waits for
 * the subdomain to answer and then links to it; its login page shows the organisation's logo and
 * colour; signed in there, only cloud vaults are listed; someone of no organisation signing in there
 * is told 'You are not allowed to access this organization.' and signed out.
 *
 * The shared e2e server's PUBLIC_URL is http://localhost:PORT, so BASE_DOMAIN is its default
 * 'localhost' and organisations live at http://{subdomain}.localhost:PORT, which Chromium resolves
 * to the machine itself. Desktop only (playwright.config.ts); its 375 px screenshots are taken here.
 */
import { LoginPage } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, shootBothWidths, test, uniqueEmail } from './fixtures';

// A 2x2 orange PNG.
const LOGO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGO46cEPRAwQCgAkdgTBRV8DggAAAABJRU5ErkJggg==', 'base64');

test('[R125][R135] a subdomain becomes ready, wears the logo and colour, lists cloud vaults only and turns away outsiders', async ({ page, browser, baseURL }, testInfo) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const adminEmail = uniqueEmail(testInfo, 'brand-admin');
  const outsiderEmail = uniqueEmail(testInfo, 'brand-outsider');
  const cloudVault = `Field cloud ${stamp}`;
  const permanentVault = `Field archive ${stamp}`;
  const subdomain = `brand${stamp}`;
  const port = new URL(baseURL ?? '').port;
  const branded = `http://${subdomain}.localhost:${port}`;

  await new SignupFlow(page).createAccount(DATA_DIR, adminEmail, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(cloudVault, { storage: 'Cloud storage', privacy: 'Private' });
  await room.createVault(permanentVault, { storage: 'Permanent storage', privacy: 'Private', tour: 'none' });

  // The details: the subdomain is set up, then linked once it answers.
  await page.goto('/account');
  await page.getByRole('link', { name: /Organisation/ }).click();
  await page.getByRole('textbox', { name: 'Organisation name' }).fill('Acme Field Team');
  await page.getByRole('textbox', { name: 'Subdomain' }).fill(subdomain);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Logo' }).click();
  await (await chooser).setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO });
  await page.getByRole('textbox', { name: 'Primary colour' }).fill('#d9480f');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Organisation details saved')).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(`${subdomain}\\.localhost`) })).toBeVisible({ timeout: 30_000 });

  // The subdomain's login page: the organisation's logo instead of Cairn's, its colour on the button.
  const visitor = await browser.newContext({ baseURL: branded, viewport: { width: 1280, height: 800 } });
  const brandedPage = await visitor.newPage();
  await brandedPage.goto('/login');
  await expect(brandedPage.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await expect(brandedPage.getByRole('img', { name: 'Acme Field Team logo' })).toBeVisible();
  await expect(brandedPage.getByRole('img', { name: 'Cairn' })).toHaveCount(0);
  await brandedPage.getByLabel('Email').fill(adminEmail);
  await brandedPage.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
  await expect(brandedPage.getByRole('button', { name: 'Log in' })).toHaveCSS('background-color', 'rgb(217, 72, 15)');
  await shootBothWidths(brandedPage, 'white-label-login');

  // Signed in there: cloud vaults only.
  await brandedPage.getByRole('button', { name: 'Log in' }).click();
  await expect(brandedPage.getByRole('row').filter({ hasText: cloudVault })).toBeVisible({ timeout: 30_000 });
  await expect(brandedPage.getByRole('row').filter({ hasText: permanentVault })).toHaveCount(0);
  await shootBothWidths(brandedPage, 'white-label-vaults');
  // The main address still lists both.
  await page.goto('/vaults/active');
  await expect(page.getByRole('row').filter({ hasText: permanentVault })).toBeVisible({ timeout: 30_000 });

  // Someone of no organisation is turned away from the subdomain.
  const outsiderHome = await (await browser.newContext()).newPage();
  await new SignupFlow(outsiderHome).createAccount(DATA_DIR, outsiderEmail, STRONG_PASSWORD);
  const outsider = await (await browser.newContext({ baseURL: branded })).newPage();
  await outsider.goto('/login');
  await new LoginPage(outsider).submit(outsiderEmail, STRONG_PASSWORD);
  await expect(outsider.getByText('You are not allowed to access this organization.')).toBeVisible({ timeout: 30_000 });
  await expect(outsider.getByRole('heading', { name: 'Log in' })).toBeVisible();
});
