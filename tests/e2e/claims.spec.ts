/**
 * Issue 21, claims and the dollar value as users meet them (SYNC_SPEC R120, R121): a user who
 * earned $U with a permanent upload and has a paid invoice claims part of it to an outside Arweave
 * wallet through the Claim $U modal (the spec's texts for a bad address and an amount over the
 * balance), and the balance drops; the dollar value comes from a local price source
 * (TOKEN_PRICE_URL). A user without a paid invoice sees no Claim action, and on a server without a
 * price source the page says it cannot display the dollar value.
 *
 * The paid invoice is written straight into the server's SQLite database (the operator's
 * invoice-paid command is another slice's; checkout is tested in checkout.spec.ts). Its own server
 * (KillableServer, ports 18846-18847) with a gateway that mines every second, and a price source on
 * 18848; desktop only (playwright.config.ts), its 375 px screenshots taken here. Its plans file
 * gates inviting members to Boulder (SYNC_SPEC R122): a Pebble owner's invitation is refused with
 * the reason and an Upgrade link.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from '@playwright/test';
import { KillableServer } from './KillableServer';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail, shootBothWidths } from './fixtures';
import { planPrice, writePlansFile } from '../../server/testing/plansFixture';

const PROXY_PORT = Number(process.env.E2E_CLAIMS_PORT ?? 18_846);
const PRICE_PORT = PROXY_PORT + 2;
const server = new KillableServer(PROXY_PORT, PROXY_PORT + 1);
const VIEWPORT = { width: 1280, height: 800 };
/** An outside Arweave wallet (no Cairn account's). */
const OUTSIDE = 'Outside-Arweave-Wallet_0123456789abcdefghij';
const UNAVAILABLE = "We're currently unable to display the dollar value";
/** Pebble (free, default) lists vaults only; Boulder vaults and members: inviting is Boulder's (R122). */
const PLANS = {
  default_plan: 'pebble',
  plans: [
    { id: 'pebble', name: 'Pebble', price: planPrice(0), metadata: { app_features: 'vaults' }, storage: { permanent_bytes: 100_000_000, cloud_bytes: 1_000_000_000 }, limits: { vaults: null, members: null } },
    { id: 'boulder', name: 'Boulder', price: planPrice(1000), metadata: { app_features: 'vaults;members' }, storage: { permanent_bytes: 10_000_000_000, cloud_bytes: 100_000_000_000 }, limits: { vaults: null, members: 50 } },
  ],
};
/** The first test's account, invited in the last one. */
let claimantEmail = '';

/** The price source: 1 U is 2 dollars. */
const priceSource = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"usd":2}');
});

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: VIEWPORT });
  const page = await context.newPage();
  await new SignupFlow(page).createAccount(server.dataDir, email, STRONG_PASSWORD);
  return page;
}

/** Marks the account paid: a paid invoice row, as the operator's invoice-paid command leaves it. */
function insertPaidInvoice(dataDir: string, email: string): void {
  const db = new Database(join(dataDir, 'cairn.sqlite'));
  try {
    const user = db.prepare('select id from users where email = ?').get(email.toLowerCase()) as { id: string };
    const now = Date.now();
    db.prepare(
      `insert into invoices (id, number, user_id, plan_id, currency, quantity, coupon, subtotal, discount, total_tax, total, lines, status, created_at, kind, topup_storage, topup_gb, paid_at)
       values (?, ?, ?, 'pebble', 'usd', 1, null, 1000, 0, 167, 1000, '[]', 'paid', ?, 'subscription', null, null, ?)`,
    ).run(randomUUID(), `E2E-${now}`, user.id, now, now);
  } finally {
    db.close();
  }
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await new Promise<void>((resolve) => priceSource.listen(PRICE_PORT, '127.0.0.1', resolve));
  await server.start({ ARLOCAL_MINE_MS: '1000', TOKEN_PRICE_URL: `http://127.0.0.1:${PRICE_PORT}/price/U`, PLANS_FILE: writePlansFile(PLANS) });
});

test.afterAll(async () => {
  await server.stop();
  await new Promise<void>((resolve) => priceSource.close(() => resolve()));
});

test('[R120][R121] a user with a paid invoice claims part of their $U to an outside wallet; the balance and its dollar value drop', async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  const email = uniqueEmail(testInfo, 'claimant');
  claimantEmail = email;
  const page = await signedIn(browser, email);

  // 1.5 MiB saved forever earns 1.5 U once COMMITTED (1 U per MiB).
  const room = new VaultRoom(page);
  await room.createVault(`Claims ${Date.now().toString(36)}`, { storage: 'Permanent storage', privacy: 'Private' });
  await room.pickFiles([{ name: 'field-notes.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(1.5 * 1024 * 1024, 3) }]);
  await room.confirmUpload();
  await expect(room.row('field-notes.bin')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('link', { name: /^Rewards/ }).first().click();
  await expect(page.getByRole('status', { name: 'Balance: 1.5000 $U' })).toBeVisible({ timeout: 180_000 });
  // The dollar value from the price source; no Claim action before a paid invoice.
  await expect(page.getByLabel('Dollar value')).toHaveText('≈ $3.00', { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Claim $U' })).toHaveCount(0);

  insertPaidInvoice(server.dataDir, email);
  await page.reload();
  await page.getByRole('button', { name: 'Claim $U' }).click();
  const dialog = page.getByRole('dialog', { name: 'Claim $U' });
  const address = dialog.getByRole('textbox', { name: 'Arweave wallet address' });
  const amount = dialog.getByRole('textbox', { name: 'Amount' });
  const claim = dialog.getByRole('button', { name: 'Claim', exact: true });
  await address.fill(OUTSIDE.slice(0, 42));
  await amount.fill('2');
  await expect(dialog.getByText('Incorrect format for an Arweave wallet address.')).toBeVisible();
  await expect(dialog.getByText('Amount exceeds total balance.')).toBeVisible();
  await expect(claim).toBeDisabled();
  await shootBothWidths(page, 'claims-errors');

  await address.fill(OUTSIDE);
  await amount.fill('0.5');
  await expect(claim).toBeEnabled();
  await claim.click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole('status', { name: 'Balance: 1.0000 $U' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel('Dollar value')).toHaveText('≈ $2.00');
  await expect(page.getByRole('list', { name: 'Your claims' })).toContainText(`0.5000 $U to ${OUTSIDE}: waiting to be paid out`);
  // The balance after the claim is the ledger's replay (the claim is a signed entry in it).
  await expect(page.getByText("Verified: the ledger's signed entries add up to this balance.")).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await expect(page.getByRole('status', { name: 'Balance: 1.0000 $U' })).toBeVisible({ timeout: 30_000 });
  await shootBothWidths(page, 'claims-after');
});

test('[R120][R121] without a paid invoice there is no Claim action; without a price source the page says it cannot display the dollar value', async ({ page }, testInfo) => {
  // The config's server: no TOKEN_PRICE_URL.
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'no-claim'), STRONG_PASSWORD);
  await page.goto('/rewards');
  await expect(page.getByRole('status', { name: 'Balance: 0.0000 $U' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel('Dollar value')).toHaveText(UNAVAILABLE, { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Send $U' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Claim $U' })).toHaveCount(0);
  await shootBothWidths(page, 'claims-none');
});

test('[R122] on a plan without the members feature, an invitation is refused with the reason naming the plan and an Upgrade link', async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const owner = await signedIn(browser, uniqueEmail(testInfo, 'pebble-owner'));
  const room = new VaultRoom(owner);
  const vaultName = `Gated ${Date.now().toString(36)}`;
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  await room.openVaultMenu(vaultName, 'Invite to vault');
  await owner.getByRole('textbox', { name: 'E-mail 1' }).fill(claimantEmail);
  await owner.getByRole('button', { name: 'Send' }).click();
  const refusal = owner.getByRole('alert').filter({ hasText: 'Inviting members is not part of the Pebble plan. Upgrade your plan to use it.' });
  await expect(refusal).toBeVisible({ timeout: 30_000 });
  await expect(refusal.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', /pricing-plans/);
  await shootBothWidths(owner, 'claims-invite-not-in-plan');
});
