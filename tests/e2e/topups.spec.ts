/**
 * Issue 21, storage top-ups as a new user meets them (SYNC_SPEC R118-R119): from the storage page
 * the user tops up 1 GB of cloud storage, saving billing details in the form, and sees the invoice
 * number; once the operator marks the invoice paid (here a direct update of its row, as
 * `npm run admin -- invoice-paid` will), 'Verify balance' shows the cloud card 1 GB larger. Asking
 * for more than the plan's top-up limit opens 'You've hit the top up limit', whose Upgrade leads to
 * the pricing page. Its own server (KillableServer, ports 18836-18837) with a PLANS_FILE; desktop
 * only (playwright.config.ts), with its 375 px screenshots taken here.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { pebbleAndBoulder, writePlansFile } from '../../server/testing/plansFixture';
import { KillableServer } from './KillableServer';
import { SignupFlow } from './pages/SignupFlow';
import { STRONG_PASSWORD, expect, test, uniqueEmail, shootBothWidths } from './fixtures';

const PROXY_PORT = Number(process.env.E2E_TOPUPS_PORT ?? 18_836);
const server = new KillableServer(PROXY_PORT, PROXY_PORT + 1);
const VIEWPORT = { width: 1280, height: 800 };

/** Pebble (1 GB cloud) may top up 2 GB in all; a cloud GB costs $0.60. */
function plans() {
  const file = pebbleAndBoulder({ eur: 950, usd: 1000, gbp: 800 });
  file.plans[0]!.limits = { ...file.plans[0]!.limits, topup_gb: 2 } as (typeof file.plans)[0]['limits'];
  return { ...file, topup_prices: { permanent_gb: { eur: 200, usd: 240, gbp: 170 }, cloud_gb: { eur: 50, usd: 60, gbp: 40 } } };
}

/** What the operator's invoice-paid command does to the row (BillingService.markPaid, another slice). */
function markPaid(number: string): void {
  const db = new Database(join(server.dataDir, 'cairn.sqlite'));
  try {
    const result = db.prepare("update invoices set status = 'paid', paid_at = ? where number = ?").run(Date.now(), number);
    expect(result.changes).toBe(1);
  } finally {
    db.close();
  }
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await server.start({ PLANS_FILE: writePlansFile(plans()) });
});

test.afterAll(async () => {
  await server.stop();
});

test('[R118][R119] a user tops up 1 GB of cloud storage by invoice; paid, the cloud card grows by 1 GB; past the limit, the top up limit prompt', async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: server.url, viewport: VIEWPORT });
  const page = await context.newPage();
  await new SignupFlow(page).createAccount(server.dataDir, uniqueEmail(testInfo, 'topups'), STRONG_PASSWORD);

  await page.getByRole('link', { name: 'Storage', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'Storage', level: 1 })).toBeVisible();
  const cloudCard = page.getByRole('region', { name: 'Cloud storage' });
  await expect(cloudCard).toContainText('of 1 GB used');

  await cloudCard.getByRole('button', { name: 'Top up' }).click();
  const form = page.getByRole('dialog', { name: 'Top up storage' });
  // The server's price: 1 GB at $0.60, VAT inside.
  await expect(form.getByRole('table', { name: 'Top-up price' })).toContainText('1 GB of cloud storage at $0.60 a GB');
  await expect(form.getByTestId('topup-total')).toHaveText('$0.60');
  await expect(form.getByText('Your plan lets you top up 2 GB more.')).toBeVisible();
  // No billing details yet: buying waits for them.
  await expect(form.getByRole('button', { name: 'Buy top-up' })).toBeDisabled();

  const details = form.getByRole('form', { name: 'Billing details' });
  await details.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await details.getByLabel('Country', { exact: true }).fill('United Kingdom');
  await details.getByLabel('Address', { exact: true }).fill('12 St James Square');
  await details.getByLabel('City', { exact: true }).fill('London');
  await details.getByLabel('Zip code', { exact: true }).fill('SW1Y 4JH');
  await details.getByRole('button', { name: 'Save billing details' }).click();
  // Saved: shown read-only with Edit, and buying no longer waits.
  await expect(form.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(form.getByRole('button', { name: 'Buy top-up' })).toBeEnabled();

  // The terms first (the spec's text), then the invoice.
  await form.getByRole('button', { name: 'Buy top-up' }).click();
  await expect(form.getByText('Accepting the terms and conditions is mandatory before signing up for the plan.')).toBeVisible();
  await form.getByLabel('I accept the terms and conditions').check();
  await form.getByRole('button', { name: 'Buy top-up' }).click();
  const issued = form.getByRole('status').filter({ hasText: /Invoice CAIRN-\d{6} issued/ });
  await expect(issued).toBeVisible();
  const number = /CAIRN-\d{6}/.exec((await issued.textContent()) ?? '')![0];
  await expect(page.getByText(`Top-up invoice ${number} issued`)).toBeVisible();
  await shootBothWidths(page, 'topup-issued');
  await form.getByRole('button', { name: 'Done' }).click();

  // Open, it adds nothing; paid, 'Verify balance' shows 1 GB more.
  await page.getByRole('button', { name: 'Verify balance' }).click();
  await expect(cloudCard).toContainText('of 1 GB used');
  markPaid(number);
  await page.getByRole('button', { name: 'Verify balance' }).click();
  await expect(cloudCard).toContainText('of 2 GB used');
  await shootBothWidths(page, 'topup-paid');

  // 1 GB bought of 2: asking for 2 more is past the limit.
  await cloudCard.getByRole('button', { name: 'Top up' }).click();
  await expect(form.getByText('Your plan lets you top up 1 GB more.')).toBeVisible();
  await form.getByLabel('GB', { exact: true }).fill('2');
  await expect(form.getByTestId('topup-total')).toHaveText('$1.20');
  await form.getByLabel('I accept the terms and conditions').check();
  await form.getByRole('button', { name: 'Buy top-up' }).click();
  const prompt = page.getByRole('dialog', { name: "You've hit the top up limit" });
  await expect(prompt).toBeVisible();
  await shootBothWidths(page, 'topup-limit');
  await prompt.getByRole('button', { name: 'Cancel' }).click();
  await expect(prompt).toBeHidden();

  // The last GB still fits; after it, Top up opens the prompt straight away (nothing is left).
  await cloudCard.getByRole('button', { name: 'Top up' }).click();
  await expect(form.getByTestId('topup-total')).toHaveText('$0.60');
  await form.getByLabel('I accept the terms and conditions').check();
  await form.getByRole('button', { name: 'Buy top-up' }).click();
  await expect(form.getByRole('status').filter({ hasText: /Invoice CAIRN-\d{6} issued/ })).toBeVisible();
  await form.getByRole('button', { name: 'Done' }).click();
  await cloudCard.getByRole('button', { name: 'Top up' }).click();
  await expect(prompt).toBeVisible();
  await expect(form).toBeHidden();
  await prompt.getByRole('button', { name: 'Upgrade' }).click();
  await expect(page).toHaveURL(/\/account\/plans-and-payments\/pricing-plans/);
  await expect(cloudCard).toHaveCount(0);
  await context.close();
});
