/**
 * Issue 21, checkout as a new user meets it (SYNC_SPEC R112-R114): from Pricing plans the user
 * chooses the paid plan, is refused with bad billing details (each field's error), saves good ones,
 * is told 'Incorrect discount code' for a wrong coupon, applies a right one and sees the discount
 * in the summary the server computed (VAT 20% included), ticks the terms and subscribes: an open
 * invoice is issued and the plan stays the free one until the operator marks it paid. Its own server
 * (KillableServer, ports 18816-18817) with a PLANS_FILE; desktop only (playwright.config.ts), with
 * its 375 px screenshots taken here.
 */
import type { Page } from '@playwright/test';
import { pebbleAndBoulder, writePlansFile } from '../../server/testing/plansFixture';
import { KillableServer } from './KillableServer';
import { SignupFlow } from './pages/SignupFlow';
import { STRONG_PASSWORD, expect, test, uniqueEmail, shootBothWidths } from './fixtures';

const PROXY_PORT = Number(process.env.E2E_CHECKOUT_PORT ?? 18_816);
const server = new KillableServer(PROXY_PORT, PROXY_PORT + 1);
const VIEWPORT = { width: 1280, height: 800 };

/** Boulder at €9.50 / $10 / £8 a month, and one coupon: 25% off. */
const PLANS = { ...pebbleAndBoulder({ eur: 950, usd: 1000, gbp: 800 }), coupons: [{ code: 'SPRING25', percent_off: 25 }] };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await server.start({ PLANS_FILE: writePlansFile(PLANS) });
});

test.afterAll(async () => {
  await server.stop();
});

test('[R112][R113][R114] checkout: bad billing details refused field by field, a wrong coupon removed, a right one discounts the server-computed total', async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: server.url, viewport: VIEWPORT });
  const page = await context.newPage();
  await new SignupFlow(page).createAccount(server.dataDir, uniqueEmail(testInfo, 'checkout'), STRONG_PASSWORD);

  await page.getByRole('button', { name: /^Account menu for / }).click();
  await page.getByRole('menuitem', { name: 'Plans and billing' }).click();
  await page.getByText('EUR', { exact: true }).click();
  await page.getByRole('article', { name: 'Boulder' }).getByRole('link', { name: 'Choose Boulder' }).click();
  await expect(page).toHaveURL(/plan=boulder/);

  // The card section says plainly there is no card payment here.
  await expect(page.getByText('Card payment is not configured on this server.')).toBeVisible();

  // The upcoming invoice, as the server computed it: €9.50 with €1.58 of VAT inside.
  const summary = page.getByRole('table', { name: 'Upcoming invoice' });
  await expect(summary.getByRole('row', { name: /Subtotal/ })).toContainText('€9.50');
  await expect(summary.getByRole('row', { name: /VAT \(20% included\)/ })).toContainText('€1.58');
  await expect(summary.getByRole('row', { name: /Total/ })).toContainText('€9.50');

  // Bad billing details: each field's rule (spec 002 section 5).
  const form = page.getByRole('form', { name: 'Billing details' });
  await form.getByLabel('Name', { exact: true }).fill('Al');
  await form.getByLabel('Country', { exact: true }).fill('G');
  await form.getByLabel('Address', { exact: true }).fill('12');
  await form.getByLabel('City', { exact: true }).fill('Ly');
  await form.getByLabel('Zip code', { exact: true }).fill('12');
  await form.getByRole('button', { name: 'Save billing details' }).click();
  await expect(form.getByText('Name must be more than 2 characters.')).toBeVisible();
  await expect(form.getByText('Country must be more than 1 character.')).toBeVisible();
  await expect(form.getByText('Address must be more than 2 characters.')).toBeVisible();
  await expect(form.getByText('City must be more than 2 characters.')).toBeVisible();
  await expect(form.getByText('Zip code must be between 3 and 11 characters.')).toBeVisible();
  await form.getByLabel('Zip code', { exact: true }).fill('123456789012');
  await form.getByRole('button', { name: 'Save billing details' }).click();
  await expect(form.getByText('Zip code must be between 3 and 11 characters.')).toBeVisible();
  await shootBothWidths(page, 'checkout-errors');

  // Good ones are saved and shown read-only with Edit; a reload reads them back from the server.
  await form.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await form.getByLabel('Country', { exact: true }).fill('United Kingdom');
  await form.getByLabel('Address', { exact: true }).fill('12 St James Square');
  await form.getByLabel('City', { exact: true }).fill('London');
  await form.getByLabel('Zip code', { exact: true }).fill('SW1Y 4JH');
  await form.getByRole('button', { name: 'Save billing details' }).click();
  const address = page.getByLabel('Billing address');
  await expect(address.getByText('Ada Lovelace')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Billing address').getByText('SW1Y 4JH London')).toBeVisible();
  await expect(page.getByLabel('Billing address').getByRole('button', { name: 'Edit' })).toBeVisible();

  // Apply appears at 3 characters; a wrong code shows the spec's text and is removed.
  const coupon = page.getByLabel('Discount code');
  await coupon.fill('NO');
  await expect(page.getByRole('button', { name: 'Apply' })).toHaveCount(0);
  await coupon.fill('NOPE');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Incorrect discount code')).toBeVisible();
  await expect(coupon).toHaveValue('');

  // A right one: the server's summary shows the discount and the lower total, VAT still inside.
  await coupon.fill('spring25');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Discount code SPRING25 applied.')).toBeVisible();
  await expect(summary.getByRole('row', { name: /Discount SPRING25 \(25% off\)/ })).toContainText('-€2.38');
  await expect(summary.getByRole('row', { name: /^Total/ })).toContainText('€7.12');
  await expect(summary.getByRole('row', { name: /VAT/ })).toContainText('€1.19');

  // Terms and renewal: Subscribe without them shows the spec's text and issues nothing.
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText('Accepting the terms and conditions is mandatory before signing up for the plan.')).toBeVisible();
  await page.getByRole('checkbox', { name: 'I accept the terms and conditions' }).check();
  await expect(page.getByText('Accepting the terms and conditions is mandatory before signing up for the plan.')).toBeVisible();
  await page.getByRole('checkbox', { name: /renews automatically every month/ }).check();
  await expect(page.getByText('Accepting the terms and conditions is mandatory before signing up for the plan.')).toHaveCount(0);
  await expect(page.getByText('1% of your purchase is contributed to carbon removal.')).toBeVisible();
  await expect(page.getByText(/non-refundable for the month/)).toBeVisible();
  await shootBothWidths(page, 'checkout-summary');

  // Subscribing issues an open invoice for the discounted total; the plan stays Pebble until it is paid.
  await page.getByRole('button', { name: 'Subscribe' }).click();
  const issued = page.getByRole('status').filter({ hasText: /Invoice CAIRN-\d{6} issued/ });
  await expect(issued).toContainText('€7.12 to pay by invoice');
  await expect(issued).toContainText('when the server\'s operator marks the invoice paid');
  await shootBothWidths(page, 'checkout-issued');
  await page.getByRole('tab', { name: 'Pricing plans' }).click();
  await expect(page.getByRole('article', { name: 'Pebble' }).getByText('Current plan')).toBeVisible();
  await context.close();
});
