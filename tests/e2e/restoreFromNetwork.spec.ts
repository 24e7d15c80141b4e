/**
 * Issue 19, done when: a private permanent vault outlives its server (docs/SYNC_SPEC.md R84-R97).
 * Server A makes the vault (folders, a file of several chunks, a note, chat messages) and relays
 * it to a standalone arlocal that outlives A; A and its DATA_DIR are then deleted, a fresh server
 * B on the same gateway gets an account from the same phrase, and 'Restore a vault from the
 * network' rebuilds the vault there: every file downloads byte for byte with its name and folder,
 * the note has its text and the chat its messages.
 */
import { type Browser, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepMining } from '../../server/arweave/embeddedArlocal';
import { TestGateway } from '../../server/testing/arlocal';
import { CHUNK_SIZE } from '../../src/protocol/vaults';
import { expect, STRONG_PASSWORD, test, uniqueEmail } from './fixtures';
import { KillableServer } from './KillableServer';
import { LoginPage } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';

const BASE_PORT = Number(process.env.E2E_PORT ?? 18_080);
const VIEWPORT = { width: 1280, height: 800 };
const SHOTS = '.tmp/screenshots';

let scratch = '';
let gateway: TestGateway | null = null;
let stopMining: (() => void) | null = null;
const servers: KillableServer[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  scratch = mkdtempSync(join(tmpdir(), 'cairn-e2e-restore-'));
  gateway = new TestGateway(scratch);
  await gateway.start();
  // arlocal mines only when asked; the embedded one mines every few seconds, so does this test.
  stopMining = keepMining(() => gateway!.mine(), 2_000);
});

test.afterAll(async ({ browserName: _browser }, testInfo) => {
  stopMining?.();
  // The servers' logs stay beside the test's results (the relay's posts to the gateway).
  for (const [index, server] of servers.entries()) await server.stop({ dir: testInfo.outputDir, name: `server-${index}` });
  await gateway?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function serverOnGateway(offset: number): KillableServer {
  const server = new KillableServer(BASE_PORT + offset, BASE_PORT + offset + 1, {
    ARWEAVE_GATEWAY: gateway!.url,
    ARWEAVE_WALLET: gateway!.walletFile,
    // A post the loaded gateway timed out is tried again within seconds, not after minutes of backoff.
    ARWEAVE_RETRY_MAX_MS: '10000',
  });
  servers.push(server);
  return server;
}

async function pageOn(browser: Browser, server: KillableServer): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: VIEWPORT, acceptDownloads: true });
  return context.newPage();
}

/** The page at 1280 and 375 px; at 375 once the desktop navbar has slid away (its transition). */
async function shootBoth(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  const heading = page.getByRole('heading', { name: 'Restore a vault from the network' });
  await expect.poll(async () => (await heading.boundingBox())?.x ?? 999).toBeLessThan(24);
  await page.screenshot({ path: `${SHOTS}/${name}-375.png`, fullPage: true });
  await page.setViewportSize(VIEWPORT);
}

async function pastePhrase(page: Page, phrase: string): Promise<void> {
  const first = page.getByRole('textbox', { name: 'Word 1', exact: true });
  await first.evaluate((input: HTMLInputElement, text: string) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    input.focus();
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, phrase);
}

test('[R96] a private permanent vault restored from the network alone on a fresh server, byte for byte, with its folders, note and chat', async ({ browser }, testInfo) => {
  test.setTimeout(900_000);
  const mark = `N${Date.now().toString(36)}`;
  const vaultName = `Expedition ${mark}`;
  const email = uniqueEmail(testInfo, 'restore-net');
  // Three chunks (uploads use CHUNK_SIZE), as small as still gives several.
  const big = { name: `terrain-${mark}.bin`, mimeType: 'application/octet-stream', buffer: randomBytes(2 * CHUNK_SIZE + 1024 * 1024) };
  const small = { name: `notes-${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} field notes\n`.repeat(40)) };
  const noteTitle = `Camp ${mark}`;
  const noteText = `The cairn is north of the lake (${mark}).`;
  const messages = [`Meet at the cairn ${mark}`, `Bring the maps ${mark}`];

  // --- server A: the vault, relayed to the gateway -------------------------------------------
  const serverA = serverOnGateway(40);
  await serverA.start();
  const a = await pageOn(browser, serverA);
  const words = await new SignupFlow(a).createAccount(serverA.dataDir, email, STRONG_PASSWORD);
  const room = new VaultRoom(a);
  await room.createVault(vaultName, { storage: 'Permanent storage', privacy: 'Private' });
  const vaultId = /\/vaults\/[^/]+\/([^/]+)/.exec(new URL(a.url()).pathname)![1]!;
  await room.createFolder('Survey');
  await room.openFolder('Survey');
  await room.pickFiles([big]);
  await room.confirmUpload();
  await expect(room.row(big.name)).toBeVisible({ timeout: 60_000 });
  await expect(a.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 120_000 });
  await a.getByRole('button', { name: 'Add an asset' }).click();
  await a.getByRole('menuitem', { name: 'Create note' }).click();
  await a.getByRole('textbox', { name: 'Title' }).fill(noteTitle);
  await a.getByRole('textbox', { name: 'Text' }).fill(noteText);
  await a.getByRole('button', { name: 'Save note' }).click();
  await a.getByRole('dialog').getByRole('button', { name: 'Save note' }).click();
  await expect(room.row(`${noteTitle}.md`)).toBeVisible({ timeout: 60_000 });
  await a.goto(`/vaults/active/${vaultId}/assets`);
  await room.pickFiles([small]);
  await room.confirmUpload();
  await expect(room.row(small.name)).toBeVisible({ timeout: 60_000 });
  await a.getByRole('tab', { name: 'Chat' }).click();
  for (const text of messages) {
    const input = a.getByRole('textbox', { name: 'Message' });
    await input.fill(text);
    await input.press('Enter');
    await expect(a.getByRole('log', { name: 'Messages' }).getByText(text, { exact: true })).toBeVisible();
  }
  await expect(a.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 60_000 });

  // Every run of the history and every file version COMMITTED on the gateway.
  await a.goto(`/vaults/active/${vaultId}/history`);
  const items = a.getByRole('list', { name: 'Network items' }).getByTestId('history-item');
  await expect(items.first()).toContainText('Successfully on the network', { timeout: 240_000 });
  await expect(items.filter({ hasNotText: 'Successfully on the network' })).toHaveCount(0, { timeout: 240_000 });
  await expect(items.last()).toContainText('Successfully on the network');
  await a.goto('/storage');
  for (const name of [big.name, small.name, `${noteTitle}.md`]) {
    await expect(a.getByTestId('storage-tx').filter({ hasText: name })).toContainText('Successfully on the network', { timeout: 420_000 });
  }
  // The history relay posts what was pushed before the chat too: wait until nothing is left out.
  await a.goto(`/vaults/active/${vaultId}/history`);
  await expect(items.filter({ hasNotText: 'Successfully on the network' })).toHaveCount(0, { timeout: 240_000 });
  await a.context().close();

  // --- server A gone with its data; the gateway stays ------------------------------------------
  await serverA.stop({ dir: testInfo.outputDir, name: 'server-a' });

  // --- server B: an account from the same phrase, then the restore -----------------------------
  const serverB = serverOnGateway(42);
  await serverB.start();
  const b = await pageOn(browser, serverB);
  const signup = new SignupFlow(b);
  await signup.fillForm(email, STRONG_PASSWORD);
  await b.getByRole('button', { name: 'I already have a recovery phrase' }).click();
  await pastePhrase(b, words.join(' '));
  await b.getByRole('button', { name: 'Setup account' }).click();
  await expect(b.getByText('Final step – verify your email')).toBeVisible({ timeout: 30_000 });
  await signup.verifyByMail(serverB.dataDir, email);
  const login = new LoginPage(b);
  await login.submit(email, STRONG_PASSWORD);
  await login.expectSignedInWithoutVaults();

  // Reached by clicks from the first page a new account sees.
  await b.getByRole('link', { name: 'Restore a vault from the network' }).click();
  await expect(b.getByRole('heading', { name: 'Restore a vault from the network' })).toBeVisible();
  await expect(b.getByText("Reads from this server's gateway.")).toBeVisible();
  await shootBoth(b, 'restore-idle');

  const field = b.getByRole('textbox', { name: 'Vault ID' });
  await field.fill('https://example.com/not a vault');
  await b.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(b.getByText('Enter the vault ID as cairn://vault/… or the ID alone (letters, digits, - and _).')).toBeVisible();
  await field.fill(`cairn://vault/nothing${mark}`);
  await b.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(b.getByRole('alert')).toContainText('No such vault on the network');
  await expect(b.getByRole('alert')).toContainText(`No history of vault nothing${mark} is on this server's gateway: check the vault id and the gateway.`);
  await shootBoth(b, 'restore-error');

  await field.fill(`cairn://vault/${vaultId}`);
  await b.getByRole('button', { name: 'Restore', exact: true }).click();
  const progress = b.getByRole('status', { name: 'Restore progress' });
  await expect(progress.or(b.getByText('Vault restored'))).toBeVisible();
  if (await progress.isVisible()) await b.screenshot({ path: `${SHOTS}/restore-progress.png`, fullPage: true });
  await expect(b.getByText('Vault restored')).toBeVisible({ timeout: 240_000 });
  await expect(b.getByText(`"${vaultName}" is yours on this server, with every file's bytes.`)).toBeVisible();
  // R98: the result says where the restored history ends.
  await expect(b.getByText(/^The history is restored to seq \d+, received [0-9-]+ [0-9:]+ UTC: its last operation\.$/)).toBeVisible();
  await shootBoth(b, 'restore-done');

  // --- the vault on B, as its member sees it -------------------------------------------------
  await b.getByRole('button', { name: 'Open vault' }).click();
  const roomB = new VaultRoom(b);
  await roomB.skipTourIfShown();
  await expect(b.getByRole('heading', { level: 1 }).getByText(vaultName)).toBeVisible({ timeout: 60_000 });
  await expect(roomB.row(small.name)).toBeVisible({ timeout: 60_000 });
  expect((await roomB.download(small.name)).equals(small.buffer)).toBe(true);
  await roomB.openFolder('Survey');
  await expect(roomB.row(big.name)).toBeVisible();
  expect((await roomB.download(big.name)).equals(big.buffer)).toBe(true);
  await roomB.rowAction(`${noteTitle}.md`, 'Edit note');
  await expect(b.getByRole('textbox', { name: 'Text' })).toHaveValue(noteText, { timeout: 30_000 });
  await b.goto(`/vaults/active/${vaultId}/chat`);
  for (const text of messages) await expect(b.getByRole('log', { name: 'Messages' }).getByText(text, { exact: true })).toBeVisible({ timeout: 30_000 });

  // The vault list offers the restore too, beside 'New vault', at both widths.
  await b.goto('/vaults/active');
  await expect(roomB.row(vaultName)).toBeVisible({ timeout: 30_000 });
  await b.screenshot({ path: `${SHOTS}/restore-vault-list.png` });
  await b.setViewportSize({ width: 375, height: 800 });
  await expect(b.getByRole('link', { name: 'Restore from network' })).toBeVisible();
  await expect.poll(async () => (await b.getByRole('heading', { name: 'Vaults', level: 1 }).boundingBox())?.x ?? 999).toBeLessThan(24);
  await b.screenshot({ path: `${SHOTS}/restore-vault-list-375.png` });
  await b.getByRole('link', { name: 'Restore from network' }).click();
  await expect(b.getByRole('heading', { name: 'Restore a vault from the network' })).toBeVisible();
});
