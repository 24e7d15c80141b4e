/**
 * Issue 20, the operator's settings as a user meets them: sign-ups limited to some e-mail domains
 * (SIGNUP_EMAIL_DOMAINS) or closed (SIGNUPS_ALLOWED=false), no SMS two-factor on a server without
 * an SMS provider (this spec's server has no SMS_TO_FILES), and the storage page's note that
 * permanent vaults go to the embedded test gateway. The server is this spec's own (KillableServer),
 * since it runs with other settings and is restarted with sign-ups closed.
 */
import { type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { KillableServer } from './KillableServer';
import { SignupFlow } from './pages/SignupFlow';
import { STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

/** Six ports above the config's server (phone: eight), inside this checkout's block of ten. */
const BASE_PORT = Number(process.env.E2E_PORT ?? 18_080);
const SCREENSHOT_DIR = join(process.cwd(), '.tmp', 'screenshots');
let server: KillableServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({}, testInfo) => {
  test.setTimeout(120_000);
  const offset = testInfo.project.name === 'phone' ? 8 : 6;
  server = new KillableServer(BASE_PORT + offset, BASE_PORT + offset + 1, { SIGNUP_EMAIL_DOMAINS: 'example.com' });
  await server.start();
});

test.afterAll(async () => {
  await server?.stop();
});

async function shoot(page: Page, project: string, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${project}-operator-${name}.png`), fullPage: true });
}

test('sign-up outside the allowed domains is refused with the rule; no SMS two-factor without a provider; the embedded gateway note', async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: server.url, viewport: testInfo.project.use.viewport ?? undefined });
  const page = await context.newPage();
  const signup = new SignupFlow(page);

  await signup.fillForm(`outsider.${Date.now().toString(36)}@elsewhere.test`, STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('recovery-phrase')).toBeVisible();
  await page.getByRole('button', { name: 'Setup account' }).click();
  await expect(page.getByRole('alert')).toHaveText('Sign-ups on this server are only for e-mail addresses at example.com.');
  await shoot(page, testInfo.project.name, 'signup-domain');

  await signup.createAccount(server.dataDir, uniqueEmail(testInfo, 'operator'), STRONG_PASSWORD);
  await page.goto('/account/security/two-factor-authentication');
  await expect(page.getByText('Add a second step to logging in: a code from an authenticator app.')).toBeVisible();
  await expect(page.getByRole('radio', { name: /Authenticator app/ })).toBeVisible();
  await expect(page.getByRole('radio', { name: /SMS/ })).toHaveCount(0);
  await shoot(page, testInfo.project.name, 'two-factor-no-sms');

  await page.goto('/storage');
  await expect(page.getByText('This server keeps permanent vaults on its own test gateway, not on the permanent network.')).toBeVisible();
  await shoot(page, testInfo.project.name, 'storage-embedded-note');
  await context.close();
});

test('with sign-ups closed the sign-up page says so', async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  await server.kill();
  await server.start({ SIGNUPS_ALLOWED: 'false' });
  const context = await browser.newContext({ baseURL: server.url, viewport: testInfo.project.use.viewport ?? undefined });
  const page = await context.newPage();
  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: 'Sign up for Cairn' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Sign-ups are closed on this server.');
  await expect(page.getByLabel('Email')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  await shoot(page, testInfo.project.name, 'signups-closed');
  await context.close();
});
