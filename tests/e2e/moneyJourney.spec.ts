/**
 * Issue 21's "Done when", first half, as a new user meets it (SYNC_SPEC R101, R112-R117): a Pebble
 * user hits the vault limit (this server's plans file allows one vault), follows Upgrade to the
 * pricing plans and the checkout, is refused with bad billing details and a wrong coupon,
 * subscribes with a right coupon and sees the open invoice on the Invoices tab; the operator marks
 * it paid with `npm run admin -- invoice-paid NUMBER` (a child process on the server's DATA_DIR);
 * the limit is lifted (the refused vault is created), the invoice downloads as a PDF named from
 * its number with the number inside, and ending the subscription returns the user to Pebble.
 * Its own server (KillableServer, ports 18826-18827) with a PLANS_FILE; desktop only
 * (playwright.config.ts), with its 375 px screenshots taken here.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../../server/db/openDatabase';
import { promisify } from 'node:util';
import { pdfText } from '../../server/testing/pdfText';
import { pebbleAndBoulder, writePlansFile } from '../../server/testing/plansFixture';
import { KillableServer } from './KillableServer';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { STRONG_PASSWORD, expect, shootBothWidths, test, uniqueEmail } from './fixtures';

const PROXY_PORT = Number(process.env.E2E_MONEY_PORT ?? 18_826);
const server = new KillableServer(PROXY_PORT, PROXY_PORT + 1);
const VIEWPORT = { width: 1280, height: 800 };
/** The repository (Playwright runs from it, as fixtures.ts's screenshots assume). */
const ROOT = process.cwd();

/** Pebble (free, one vault) and Boulder (€9.50 a month, no vault limit), and one coupon: 25% off. */
const PLANS = { ...pebbleAndBoulder({ eur: 950, usd: 1000, gbp: 800 }, 'vaults;members;api', 1), coupons: [{ code: 'SPRING25', percent_off: 25 }] };
const SERVER_ENV = { PLANS_FILE: writePlansFile(PLANS), INVOICE_ISSUER: 'Cairn Test Hosting', INVOICE_PAYMENT_DETAILS: 'Bank: Example Bank;IBAN: GB33 BUKB 2020 1555 5555 55' };

/** `npm run admin -- ARGS` as the operator runs it, with the server's own settings (DATA_DIR, PLANS_FILE). */
async function runAdmin(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'admin', '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...SERVER_ENV, DATA_DIR: server.dataDir },
  });
  return stdout;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await server.start(SERVER_ENV);
});

test.afterAll(async () => {
  await server.stop();
});

test('[R101][R112][R113][R114][R115][R116][R117] from the vault limit to a paid plan: checkout, invoice, the operator marks it paid, the limit is lifted, the PDF downloads', async ({
  browser,
}, testInfo) => {
  test.setTimeout(360_000);
  const context = await browser.newContext({ baseURL: server.url, viewport: VIEWPORT, acceptDownloads: true });
  const page = await context.newPage();
  const email = uniqueEmail(testInfo, 'money');
  await new SignupFlow(page).createAccount(server.dataDir, email, STRONG_PASSWORD);
  const room = new VaultRoom(page);

  // Pebble allows one vault: the second is refused with the upgrade prompt.
  await room.createVault(`Field notes ${Date.now().toString(36)}`, { storage: 'Cloud storage', privacy: 'Private' });
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 30_000 });
  const secondName = `Second archive ${Date.now().toString(36)}`;
  await room.fillVaultWizard(secondName, { storage: 'Cloud storage', privacy: 'Private' });
  await page.getByRole('button', { name: 'Create vault' }).click();
  const prompt = page.getByRole('dialog', { name: "You've hit the vault limit" });
  await expect(prompt).toBeVisible({ timeout: 30_000 });

  // Upgrade leads to the pricing plans; Boulder's checkout in euros.
  await prompt.getByRole('button', { name: 'Upgrade' }).click();
  await expect(page).toHaveURL(/\/account\/plans-and-payments\/pricing-plans$/);
  await expect(page.getByRole('article', { name: 'Pebble' }).getByText('Current plan')).toBeVisible();
  await page.getByText('EUR', { exact: true }).click();
  await page.getByRole('article', { name: 'Boulder' }).getByRole('link', { name: 'Choose Boulder' }).click();
  await expect(page).toHaveURL(/plan=boulder/);

  // Bad billing details are refused; good ones are saved.
  const form = page.getByRole('form', { name: 'Billing details' });
  await form.getByLabel('Name', { exact: true }).fill('Al');
  await form.getByLabel('Country', { exact: true }).fill('United Kingdom');
  await form.getByLabel('Address', { exact: true }).fill('12 St James Square');
  await form.getByLabel('City', { exact: true }).fill('London');
  await form.getByLabel('Zip code', { exact: true }).fill('12');
  await form.getByRole('button', { name: 'Save billing details' }).click();
  await expect(form.getByText('Name must be more than 2 characters.')).toBeVisible();
  await expect(form.getByText('Zip code must be between 3 and 11 characters.')).toBeVisible();
  await form.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await form.getByLabel('Zip code', { exact: true }).fill('SW1Y 4JH');
  await form.getByRole('button', { name: 'Save billing details' }).click();
  await expect(page.getByLabel('Billing address').getByText('Ada Lovelace')).toBeVisible();

  // A wrong coupon is refused with the spec's text and removed; a right one discounts.
  const coupon = page.getByLabel('Discount code');
  await coupon.fill('WINTER99');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Incorrect discount code')).toBeVisible();
  await expect(coupon).toHaveValue('');
  await coupon.fill('SPRING25');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Discount code SPRING25 applied.')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Upcoming invoice' }).getByRole('row', { name: /^Total/ })).toContainText('€7.12');

  // Subscribing issues an open invoice; the plan waits for the payment.
  await page.getByRole('checkbox', { name: 'I accept the terms and conditions' }).check();
  await page.getByRole('checkbox', { name: /renews automatically every month/ }).check();
  await page.getByRole('button', { name: 'Subscribe' }).click();
  const issued = page.getByRole('status').filter({ hasText: /Invoice CAIRN-\d{6} issued/ });
  await expect(issued).toContainText('€7.12 to pay by invoice');
  const number = /CAIRN-\d{6}/.exec((await issued.textContent()) ?? '')![0];

  // The Invoices tab, which the issued notice links to, lists it: number, date, Open, the total in euros, Download.
  await issued.getByRole('link', { name: 'Download it from your invoices' }).click();
  await expect(page.getByRole('tab', { name: 'Invoices' })).toHaveAttribute('aria-selected', 'true');
  const invoices = page.getByRole('table', { name: 'Invoices' });
  const row = invoices.getByRole('row').filter({ hasText: number });
  await expect(row).toContainText('Open');
  await expect(row).toContainText('€7.12');
  await expect(row.getByRole('link', { name: `Download invoice ${number}` })).toBeVisible();
  await shootBothWidths(page, 'moneyJourney-invoices-open');

  // The operator is paid and says so with the admin command, on the server's DATA_DIR.
  expect(await runAdmin('invoices', '--open')).toContain(number);
  expect(await runAdmin('invoice-paid', number)).toContain(`Invoice ${number} is paid`);

  // Back on the page, the invoice reads Paid and Boulder is the plan.
  await page.reload();
  await expect(row).toContainText('Paid');
  await shootBothWidths(page, 'moneyJourney-invoices-paid');
  await page.getByRole('tab', { name: 'Pricing plans' }).click();
  await expect(page.getByRole('article', { name: 'Boulder' }).getByText('Current plan')).toBeVisible();

  // The limit is lifted: the vault refused before is created.
  await room.createVault(secondName, { storage: 'Cloud storage', privacy: 'Private', tour: 'none' });
  await expect(page.getByRole('dialog', { name: "You've hit the vault limit" })).toHaveCount(0);
  await page.goto('/vaults');
  await expect(page.getByText(secondName).first()).toBeVisible({ timeout: 30_000 });

  // The invoice downloads as a PDF named from its number, with the number (and its status) inside.
  await page.goto('/account/plans-and-payments/invoices');
  const downloading = page.waitForEvent('download');
  await page.getByRole('table', { name: 'Invoices' }).getByRole('link', { name: `Download invoice ${number}` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${number}.pdf`);
  const bytes = await readFile((await download.path())!);
  const text = await pdfText(bytes);
  expect(text).toContain(`Invoice ${number}`);
  expect(text).toContain('Status: paid on');
  expect(text).toContain('Ada Lovelace');
  expect(text).toContain('Cairn Test Hosting');

  // Ending the subscription, after its confirmation, returns the account to Pebble.
  await page.getByRole('tab', { name: 'Pricing plans' }).click();
  await page.getByRole('button', { name: 'End subscription' }).click();
  const confirm = page.getByRole('dialog', { name: 'End subscription?' });
  await expect(confirm).toContainText('Your vaults and files stay');
  await shootBothWidths(page, 'moneyJourney-end-subscription');
  await confirm.getByRole('button', { name: 'End subscription' }).click();
  await expect(page.getByRole('article', { name: 'Pebble' }).getByText('Current plan')).toBeVisible();
  await expect(page.getByRole('button', { name: 'End subscription' })).toHaveCount(0);

  // A longer history (five older invoices written to the server's database as a year of months
  // would have left them): five a page, newest first, and 'Load more' until there are no more.
  const { db } = openDatabase({ databaseUrl: process.env.DATABASE_URL ?? null, sqlitePath: path.join(server.dataDir, 'cairn.sqlite') });
  try {
    const user = await db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow();
    for (let month = 1; month <= 5; month += 1) {
      await db
        .insertInto('invoices')
        .values({
          id: crypto.randomUUID(),
          number: `CAIRN-9000${month}0`,
          user_id: user.id,
          plan_id: 'boulder',
          currency: 'gbp',
          quantity: 1,
          coupon: null,
          subtotal: 800,
          discount: 0,
          total_tax: 133,
          total: 800,
          lines: JSON.stringify([{ description: 'Boulder (monthly)', quantity: 1, amount: 800 }]),
          status: 'paid',
          created_at: Date.now() - month * 30 * 24 * 3600 * 1000,
          kind: 'subscription',
          topup_storage: null,
          topup_gb: null,
          paid_at: Date.now() - month * 30 * 24 * 3600 * 1000,
        })
        .execute();
    }
  } finally {
    await db.destroy();
  }
  await page.getByRole('tab', { name: 'Invoices' }).click();
  const rows = page.getByRole('table', { name: 'Invoices' }).getByRole('row').filter({ hasText: /CAIRN-/ });
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toContainText(number);
  await expect(rows.nth(1)).toContainText('£8');
  await shootBothWidths(page, 'moneyJourney-invoices-page');
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(rows).toHaveCount(6);
  await expect(rows.last()).toContainText('CAIRN-900050');
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await context.close();
});
