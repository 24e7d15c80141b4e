/**
 * Issue 24, done when: the Developers page's API key drives `npx cairn` (the command does the
 * crypto), and its webhook reaches a local HTTPS receiver with signed deliveries that hold no
 * name, logged live and paged with 'See more'. A server of its own (ports 18856-18857) trusts the
 * receiver's certificate (NODE_EXTRA_CA_CERTS) and allows its loopback address
 * (WEBHOOK_ALLOWED_ADDRESSES), as an internal deployment would.
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startHttpsReceiver, type HttpsReceiver } from '../../server/testing/httpsReceiver';
import { DATA_DIR, expect, STRONG_PASSWORD, shootBothWidths, test, uniqueEmail } from './fixtures';
import { KillableServer } from './KillableServer';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';

let scratch = '';
let receiver: HttpsReceiver | null = null;
let server: KillableServer | null = null;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  scratch = mkdtempSync(join(tmpdir(), 'cairn-e2e-developers-'));
  receiver = await startHttpsReceiver();
  const caFile = join(scratch, 'receiver.pem');
  writeFileSync(caFile, receiver.ca);
  server = new KillableServer(18_856, 18_857, {
    NODE_EXTRA_CA_CERTS: caFile,
    WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1',
    // The command's syncs and chunks are requests too: more than the default 100 a period.
    API_KEY_REQUEST_LIMIT: '5000',
  });
  await server.start();
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npx cairn ...` in the project, its own config folder, `input` on standard input. */
function cairn(args: string[], options: { input?: string; phrase?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['--no-install', 'cairn', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, CAIRN_CONFIG_DIR: join(scratch, 'cairn-config'), ...(options.phrase ? { CAIRN_PHRASE: options.phrase } : {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

async function openDevelopers(page: Page, email: string, tab: 'API key' | 'Webhook'): Promise<void> {
  await page.getByRole('button', { name: `Account menu for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Developers' }).click();
  await expect(page.getByRole('heading', { name: 'Developers', level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: tab }).click();
}

/** Standard Webhooks: v1 = base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)). */
function signatureOf(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

test('[issue 24] an API key drives npx cairn both ways; a rotated key is refused; a webhook gets signed deliveries with no names, logged live and paged', async ({ browser }, testInfo) => {
  test.setTimeout(420_000);
  const mark = `D${Date.now().toString(36)}`;
  const email = uniqueEmail(testInfo, 'developers');
  const vaultName = `Field kit ${mark}`;
  const context = await browser.newContext({ baseURL: server!.url, viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  const words = await new SignupFlow(page).createAccount(server!.dataDir, email, STRONG_PASSWORD);
  const phrase = words.join(' ');
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  const roomUrl = page.url();
  const fromBrowser = { name: `ledger-${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} uploaded in the browser\n`.repeat(50)) };
  await room.pickFiles([fromBrowser]);
  await room.confirmUpload();
  await expect(room.uploadBox().getByText('Upload complete')).toBeVisible({ timeout: 60_000 });

  // --- the API key, generated on the Developers page, reached by clicks -------------------------
  await openDevelopers(page, email, 'API key');
  await page.getByRole('button', { name: 'Generate' }).click();
  const key = (await page.getByTestId('new-api-key').textContent())!.trim();
  expect(key).toMatch(/^cairn_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole('button', { name: 'Rotate' })).toBeVisible();
  await shootBothWidths(page, 'developers-api-key');

  // --- npx cairn: login (key and phrase on standard input), upload a folder, download ------------
  const login = await cairn(['login', '--server', server!.url], { input: `${key}\n${phrase}\n` });
  expect(login.code, login.stderr).toBe(0);
  const folder = join(scratch, `survey-${mark}`);
  mkdirSync(join(folder, 'maps'), { recursive: true });
  const fromCli = [
    { path: 'route.txt', bytes: Buffer.from(`${mark} the route north\n`.repeat(30)) },
    { path: 'maps/ridge.bin', bytes: Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 7) % 251)) },
  ];
  for (const file of fromCli) writeFileSync(join(folder, file.path), file.bytes);
  const upload = await cairn(['upload', folder, '--vault', vaultName], { phrase });
  expect(upload.code, upload.stderr).toBe(0);

  // The browser sees the folder decrypted, and its files byte for byte.
  await page.goto(roomUrl);
  await expect(room.row(`survey-${mark}`)).toBeVisible({ timeout: 60_000 });
  await room.openFolder(`survey-${mark}`);
  await expect(room.row('route.txt')).toBeVisible({ timeout: 30_000 });
  expect((await room.download('route.txt')).equals(fromCli[0]!.bytes)).toBe(true);
  await room.openFolder('maps');
  expect((await room.download('ridge.bin')).equals(fromCli[1]!.bytes)).toBe(true);

  // The command downloads what the browser uploaded.
  const saved = join(scratch, 'from-browser.txt');
  const download = await cairn(['download', `${vaultName}/${fromBrowser.name}`, '--out', saved], { phrase });
  expect(download.code, download.stderr).toBe(0);
  expect(readFileSync(saved).equals(fromBrowser.buffer)).toBe(true);

  // Rotated, the old key is refused at once; the new one works.
  await openDevelopers(page, email, 'API key');
  await page.getByRole('button', { name: 'Rotate' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
  await expect(page.getByTestId('new-api-key')).not.toHaveText(key);
  const refused = await cairn(['ls'], { phrase });
  expect(refused.code).toBe(7);
  expect(refused.stderr).toContain('The API key was refused');

  // --- the webhook: a private address is refused by default elsewhere (server test); here the
  // receiver's loopback address is allowed by the server's setting --------------------------------
  await page.getByRole('tab', { name: 'Webhook' }).click();
  const field = page.getByRole('textbox', { name: 'Webhook URL' });
  await field.fill('http://example.com/hook');
  await expect(page.getByRole('button', { name: 'Configure' })).toBeDisabled();
  await field.fill(`${receiver!.origin}/cairn`);
  await page.getByRole('button', { name: 'Configure' }).click();
  const secret = (await page.getByTestId('webhook-secret').textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await expect(page.getByText('No webhook deliveries yet')).toBeVisible();

  // An upload in the browser: the receiver gets a signed delivery holding ids, never a name.
  const live = { name: `secret-plan-${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} live`) };
  const logsPage = await context.newPage();
  await logsPage.goto('/account/developers/webhook');
  await expect(logsPage.getByText('No webhook deliveries yet')).toBeVisible();
  await page.goto(roomUrl);
  await room.pickFiles([live]);
  await room.confirmUpload();
  const [delivery] = await receiver!.waitForRequests(1, 60_000);
  const id = String(delivery!.headers['webhook-id']);
  const timestamp = String(delivery!.headers['webhook-timestamp']);
  expect(delivery!.headers['webhook-signature']).toBe(signatureOf(secret, id, timestamp, delivery!.body));
  expect(JSON.parse(delivery!.body)).toMatchObject({ type: 'file.uploaded' });
  for (const name of [live.name, vaultName, mark]) expect(delivery!.body).not.toContain(name);
  // The log on the other page shows it live, without a reload.
  const entries = logsPage.getByTestId('webhook-log-entry');
  await expect(entries).toHaveCount(1, { timeout: 30_000 });
  await expect(entries.first()).toContainText('file.uploaded');
  await expect(entries.first()).toContainText('Delivered');
  await expect(entries.first()).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);

  // 24 more deliveries (a folder of 24 files through the command): 'See more' pages to the end.
  const many = join(scratch, `batch-${mark}`);
  mkdirSync(many);
  for (let i = 1; i <= 24; i += 1) writeFileSync(join(many, `note-${i}.txt`), `${mark} note ${i}`);
  // The command signs in again with a fresh key (the one it holds was rotated above).
  await page.goto('/account/developers/api-key');
  await page.getByRole('button', { name: 'Rotate' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
  const newest = (await page.getByTestId('new-api-key').textContent())!.trim();
  expect((await cairn(['login', '--server', server!.url], { input: `${newest}\n${phrase}\n` })).code).toBe(0);
  const batch = await cairn(['upload', many, '--vault', vaultName], { phrase });
  expect(batch.code, batch.stderr).toBe(0);
  await receiver!.waitForRequests(25, 120_000);
  await logsPage.reload();
  await expect(entries).toHaveCount(10, { timeout: 30_000 });
  await logsPage.getByRole('button', { name: 'See more' }).click();
  await expect(entries).toHaveCount(20);
  await logsPage.getByRole('button', { name: 'See more' }).click();
  await expect(entries).toHaveCount(25);
  await expect(logsPage.getByRole('button', { name: 'See more' })).toHaveCount(0);
  await entries.first().click();
  await expect(logsPage.getByRole('code', { name: 'Request body' }).or(logsPage.getByLabel('Request body')).first()).toContainText('file.uploaded');
  await shootBothWidths(logsPage, 'developers-webhook-log');
  await context.close();
});

test('[issue 24] with the default settings a webhook to a private address is refused with the reason, and nothing is configured', async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, 'webhook-private');
  await new SignupFlow(page).createAccount(DATA_DIR, email, STRONG_PASSWORD);
  await openDevelopers(page, email, 'Webhook');
  for (const url of ['https://10.0.0.7/hook', 'https://127.0.0.1/hook', 'https://169.254.169.254/latest']) {
    await page.getByRole('textbox', { name: 'Webhook URL' }).fill(url);
    await page.getByRole('button', { name: 'Configure' }).click();
    await expect(page.getByText('Webhook URLs must point to a public address').first()).toBeVisible();
  }
  await page.reload();
  await expect(page.getByRole('button', { name: 'Configure' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove' })).toHaveCount(0);
});
