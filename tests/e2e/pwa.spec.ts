import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KillableServer } from './KillableServer';
import { LoginPage } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

/** Ports 20 to 23 above the config's server (two per project, which run side by side). */
const BASE_PORT = Number(process.env.E2E_PORT ?? 18_080);
let clientDir = '';
let server: KillableServer;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async ({ browserName: _browser }, testInfo) => {
  // A copy of the built client that this test may change (to publish a "new version").
  clientDir = mkdtempSync(join(tmpdir(), 'cairn-e2e-client-'));
  cpSync(join(process.cwd(), process.env.CAIRN_CLIENT_DIR ?? 'dist'), clientDir, { recursive: true });
  const offset = testInfo.project.name === 'phone' ? 22 : 20;
  server = new KillableServer(BASE_PORT + offset, BASE_PORT + offset + 1, { CAIRN_CLIENT_DIR: clientDir });
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
  rmSync(clientDir, { recursive: true, force: true });
});

// docs/SYNC_SPEC.md R12, R13, R16.
test('installable: a manifest with icons; a kept session opens offline from the cache; a new version asks before it reloads', async ({ browser }, testInfo) => {
  test.setTimeout(240_000);
  const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as Record<string, unknown>;
  expect(manifest).toMatchObject({ name: 'Cairn', short_name: 'Cairn', display: 'standalone', start_url: '/', theme_color: expect.any(String), background_color: expect.any(String) });
  const icons = manifest.icons as { src: string; sizes: string; purpose?: string }[];
  expect(icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(icons.some((i) => i.purpose === 'maskable')).toBe(true);
  for (const icon of icons) {
    const response = await fetch(`${server.url}/${icon.src}`);
    expect(response.headers.get('content-type')).toBe('image/png');
  }

  const context = await browser.newContext({ baseURL: server.url, viewport: testInfo.project.use.viewport ?? null });
  let page = await context.newPage();
  const email = uniqueEmail(testInfo, 'pwa');
  await new SignupFlow(page).createAccount(server.dataDir, email, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  const vaultName = `Summit ${Date.now().toString(36)}`;
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  await room.createFolder('Route maps');
  await expect(page.locator('[data-sync-status]').filter({ visible: true })).toHaveAttribute('data-sync-status', 'idle', { timeout: 30_000 });
  const login = new LoginPage(page);
  await login.logOut();
  await login.submit(email, STRONG_PASSWORD, true);
  await expect(page.getByText(vaultName).filter({ visible: true }).first()).toBeVisible({ timeout: 30_000 });

  // The service worker takes the page over after a reload; from then on the shell comes from it.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  // Offline, a new tab opens the app and the vault from what the device holds.
  await context.setOffline(true);
  await page.close();
  page = await context.newPage();
  await page.goto('/vaults/active');
  await expect(page.getByText("You're offline.", { exact: false })).toBeVisible({ timeout: 30_000 });
  await page.getByText(vaultName).filter({ visible: true }).first().click();
  await expect(new VaultRoom(page).row('Route maps')).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: join(process.cwd(), '.tmp', 'screenshots', `${testInfo.project.name}-pwa-offline.png`), fullPage: true });

  // Back online: the offline notice goes without a reload, once the server has the session again.
  await context.setOffline(false);
  await expect(page.getByText("You're offline.", { exact: false })).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole('status', { name: /^Sync: Synced/ })).toBeVisible({ timeout: 30_000 });

  // The server down while the network is up (no 'online' event will come): a new tab opens from
  // the cache and says it is offline; once the server is back, the notice goes by itself.
  await server.kill();
  await page.close();
  page = await context.newPage();
  await page.goto('/vaults/active');
  await expect(page.getByText("You're offline.", { exact: false })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(vaultName).filter({ visible: true }).first()).toBeVisible();
  await server.start();
  await expect(page.getByText("You're offline.", { exact: false })).toBeHidden({ timeout: 90_000 });
  await expect(page.getByRole('status', { name: /^Sync: Synced/ })).toBeVisible({ timeout: 30_000 });

  // A new version: it waits for the user's Reload.
  appendFileSync(join(clientDir, 'sw.js'), `\n// a new version ${Date.now()}\n`);
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
  const prompt = page.getByText('A new version of Cairn is ready');
  await expect(prompt).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(vaultName).filter({ visible: true }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(prompt).toBeHidden({ timeout: 30_000 });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => (r?.waiting ? 'waiting' : r?.active?.state)))).toBe('activated');
  await context.close();
});
