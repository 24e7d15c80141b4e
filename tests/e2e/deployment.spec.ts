import { randomBytes, createHash } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import { BACKEND_COOKIE, Deployment } from '../../server/testing/deployment';
import { CHROMIUM_FLAGS } from '../chromiumFlags';
import { LoginPage } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

// Issue 20: a real deployment (server/testing/deployment.ts): Debian's nginx terminating TLS in
// front of two Cairn processes on one PostgreSQL database, one S3 bucket and one gateway. Nothing
// but those joins the two processes, so whatever one process did must reach the other through them.
test.describe.configure({ mode: 'serial' });
// nginx's certificate is self-signed for localhost.
test.use({ ignoreHTTPSErrors: true, launchOptions: { executablePath: '/usr/bin/chromium', args: [...CHROMIUM_FLAGS, '--ignore-certificate-errors'] } });

let deployment: Deployment;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const adminDatabaseUrl = process.env.TEST_DATABASE_URL;
  if (!adminDatabaseUrl) throw new Error('TEST_DATABASE_URL (a PostgreSQL the test may create a database in) is set by `npm test`');
  deployment = await Deployment.start({ processes: 2, adminDatabaseUrl });
});

test.afterAll(async () => {
  await deployment?.stop();
});

/**
 * A browser context on the deployment; `backend` pins it to one process (nginx routes on a cookie),
 * and every answer to an /api request is recorded with the process that served it. After `pinTo`,
 * only requests sent with that pin are recorded: one still on its way from before the pin may be
 * answered by either process.
 */
async function openContext(
  browser: import('@playwright/test').Browser,
  page: Page,
  backend?: 'a' | 'b',
): Promise<{ context: BrowserContext; page: Page; servedBy: Set<string>; pinTo: (backend: 'a' | 'b') => Promise<void> }> {
  const context = await browser.newContext({ baseURL: deployment.url, ignoreHTTPSErrors: true, viewport: page.viewportSize() ?? undefined, reducedMotion: 'reduce' });
  let pinned = backend ?? null;
  if (backend) await pin(context, backend);
  const opened = await context.newPage();
  const servedBy = new Set<string>();
  opened.on('response', (response) => {
    if (!new URL(response.url()).pathname.startsWith('/api/')) return;
    const upstream = response.headers()['x-cairn-upstream'] ?? '(none)';
    const expected = pinned;
    if (!expected) {
      servedBy.add(upstream);
      return;
    }
    void response
      .request()
      .headerValue('cookie')
      .then((cookie) => {
        if (pinned === expected && (cookie ?? '').split(/;\s*/).includes(`${BACKEND_COOKIE}=${expected}`)) servedBy.add(upstream);
      })
      .catch(() => undefined);
  });
  const pinTo = async (to: 'a' | 'b') => {
    await pin(context, to);
    pinned = to;
    servedBy.clear();
  };
  return { context, page: opened, servedBy, pinTo };
}

async function pin(context: BrowserContext, backend: 'a' | 'b'): Promise<void> {
  await context.addCookies([{ name: BACKEND_COOKIE, value: backend, url: deployment.url }]);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

test('behind nginx, two processes on one PostgreSQL and one S3 bucket: sign up, upload through one process, download and see changes live through the other', async ({ page, browser }, testInfo) => {
  test.setTimeout(300_000);
  const [a, b] = deployment.processes as [NonNullable<(typeof deployment.processes)[0]>, NonNullable<(typeof deployment.processes)[0]>];
  const email = uniqueEmail(testInfo, 'deployment');
  const vaultName = `Relay station ${Date.now().toString(36)}`;

  // Sign up through the forms with nothing pinned: nginx spreads the requests over both processes,
  // which share sessions, keys and the OPAQUE server setup only through the database.
  const first = await openContext(browser, page);
  await new SignupFlow(first.page).signUp(email, STRONG_PASSWORD);
  await new SignupFlow(first.page).verifyByMail([a.dataDir, b.dataDir], email);
  await new LoginPage(first.page).submit(email, STRONG_PASSWORD);
  await new LoginPage(first.page).expectSignedInWithoutVaults();
  expect([...first.servedBy].sort()).toEqual([a.upstream, b.upstream].sort());
  // Secure cookies: PUBLIC_URL is https.
  const session = (await first.context.cookies()).find((cookie) => cookie.name !== BACKEND_COOKIE);
  expect(session?.secure).toBe(true);

  // From here on the first browser uses process a only.
  await first.pinTo('a');
  const room = new VaultRoom(first.page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  // Two chunks (8 MiB each at most): the second PUT is larger than nginx's default body limit.
  const survey = { name: 'survey.bin', mimeType: 'application/octet-stream', buffer: randomBytes(9 * 1024 * 1024 + 321) };
  await room.pickFiles([survey]);
  await room.confirmUpload();
  await expect(room.row(survey.name)).toBeVisible({ timeout: 60_000 });
  const indicator = first.page.locator('[data-sync-status]').filter({ visible: true });
  await expect(indicator).toHaveAttribute('data-sync-status', 'idle', { timeout: 60_000 });
  expect([...first.servedBy]).toEqual([a.upstream]);

  // A second browser, the same account on a new device, uses process b only.
  const second = await openContext(browser, page, 'b');
  const login = new LoginPage(second.page);
  await login.open();
  await login.submit(email, STRONG_PASSWORD);
  await second.page.getByText(vaultName).filter({ visible: true }).first().click();
  const otherRoom = new VaultRoom(second.page);
  await otherRoom.skipTourIfShown();
  const otherIndicator = second.page.locator('[data-sync-status]').filter({ visible: true });
  await expect(otherIndicator).toHaveAttribute('data-realtime', 'open', { timeout: 30_000 });
  // Each browser's socket is open on its own process.
  await expect.poll(() => deployment.metric(b, 'cairn_websocket_connections')).toBeGreaterThanOrEqual(1);
  await expect.poll(() => deployment.metric(a, 'cairn_websocket_connections')).toBeGreaterThanOrEqual(1);

  // What process a stored in the bucket, process b serves, byte for byte.
  const downloaded = await otherRoom.download(survey.name);
  expect(downloaded.length).toBe(survey.buffer.length);
  expect(sha256(downloaded)).toBe(sha256(survey.buffer));

  // A change made through process a reaches the browser on process b over its WebSocket: the
  // poke crosses processes by PostgreSQL NOTIFY, far inside the 60 s safety poll.
  const note = { name: 'field-log.txt', mimeType: 'text/plain', buffer: Buffer.from('Wind from the north-west, 40 km/h at the col.') };
  await room.pickFiles([note]);
  await room.confirmUpload();
  await expect(otherRoom.row(note.name)).toBeVisible({ timeout: 10_000 });
  expect(await otherRoom.download(note.name)).toEqual(note.buffer);
  expect([...second.servedBy]).toEqual([b.upstream]);
  expect([...first.servedBy]).toEqual([a.upstream]);

  await first.context.close();
  await second.context.close();
});
