/**
 * Issue 21, the pricing plans as a user meets them (SYNC_SPEC R111): on a server whose plans file
 * has a free plan and a paid one, a new user opens Plans and billing from the avatar menu, sees
 * both plans priced in the spec's default currency (USD), switches to EUR and GBP, sees their own
 * plan (the free one) marked, chooses the paid one and lands on the billing tab with `?plan=`; the
 * invoices tab shows its empty state. That server is this spec's own (KillableServer) since it
 * runs with a PLANS_FILE; the second test uses the suite's server, which has none: the spec's one
 * free plan and the sunset notice. Desktop only (playwright.config.ts), with its 375 px and dark
 * screenshots taken here.
 */
import type { Locator, Page } from '@playwright/test';
import { join } from 'node:path';
import { pebbleAndBoulder, writePlansFile } from '../../server/testing/plansFixture';
import { KillableServer } from './KillableServer';
import { SignupFlow } from './pages/SignupFlow';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail, shootBothWidths } from './fixtures';

/** Ports 18806-18807 unless E2E_PRICING_PORT moves them (a shared machine's own range). */
const PROXY_PORT = Number(process.env.E2E_PRICING_PORT ?? 18_806);
const server = new KillableServer(PROXY_PORT, PROXY_PORT + 1);
const VIEWPORT = { width: 1280, height: 800 };
const SCREENSHOT_DIR = join(process.cwd(), '.tmp', 'screenshots');

/** Pebble (free, the default) and Boulder (paid: €9.50, $10, £8 a month). */
const PLANS = pebbleAndBoulder({ eur: 950, usd: 1000, gbp: 800 }, 'vaults;members;nfts;api');

function planCard(page: Page, name: string): Locator {
  return page.getByRole('article', { name });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await server.start({ PLANS_FILE: writePlansFile(PLANS) });
});

test.afterAll(async () => {
  await server.stop();
});

test('[R111] Plans and billing from the avatar menu: both plans priced per currency, the current one marked, Choose leads to billing with ?plan=', async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: server.url, viewport: VIEWPORT });
  const page = await context.newPage();
  await new SignupFlow(page).createAccount(server.dataDir, uniqueEmail(testInfo, 'pricing'), STRONG_PASSWORD);

  await page.getByRole('button', { name: /^Account menu for / }).click();
  await page.getByRole('menuitem', { name: 'Plans and billing' }).click();
  await expect(page).toHaveURL(/\/account\/plans-and-payments\/pricing-plans$/);
  await expect(page.getByRole('heading', { name: 'Plans and billing', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Pricing plans' })).toHaveAttribute('aria-selected', 'true');

  const pebble = planCard(page, 'Pebble');
  const boulder = planCard(page, 'Boulder');
  // USD by default (spec 002 section 9), the spec's symbol, cents divided by 100.
  await expect(page.getByRole('radio', { name: 'USD' })).toBeChecked();
  await expect(pebble.getByText('$0', { exact: true })).toBeVisible();
  await expect(boulder.getByText('$10', { exact: true })).toBeVisible();
  // The storage, limits and features the server enforces for each plan.
  await expect(pebble.getByText('100 MB permanent storage')).toBeVisible();
  await expect(pebble.getByText('1 GB cloud storage')).toBeVisible();
  await expect(pebble.getByText('3 vaults')).toBeVisible();
  await expect(pebble.getByText('5 members per vault')).toBeVisible();
  await expect(boulder.getByText('Unlimited vaults')).toBeVisible();
  await expect(boulder.getByText('Atomic NFTs')).toBeVisible();
  // The free plan is the new account's, and marked; only the paid one can be chosen.
  await expect(pebble.getByText('Current plan')).toBeVisible();
  await expect(boulder.getByText('Current plan')).toHaveCount(0);
  await expect(pebble.getByRole('link', { name: /^Choose/ })).toHaveCount(0);
  // The operator turned the sunset notice off.
  await expect(page.getByText(/sunsetting/)).toHaveCount(0);

  // Other currencies, by pointer and by keyboard.
  await page.getByText('EUR', { exact: true }).click();
  await expect(page).toHaveURL(/currency=eur/);
  await expect(boulder.getByText('€9.50', { exact: true })).toBeVisible();
  await expect(pebble.getByText('€0', { exact: true })).toBeVisible();
  await page.getByRole('radio', { name: 'EUR' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'GBP' })).toBeChecked();
  await expect(boulder.getByText('£8', { exact: true })).toBeVisible();
  await shootBothWidths(page, 'pricing-plans');

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'pricing-plans-dark-desktop.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  // Choosing the paid plan opens the billing tab with the plan (and the currency) in the address.
  await boulder.getByRole('link', { name: 'Choose Boulder' }).click();
  await expect(page).toHaveURL(/\/account\/plans-and-payments\/billing\?(.*&)?plan=boulder/);
  await expect(page).toHaveURL(/currency=gbp/);
  await expect(page.getByRole('tab', { name: 'Billing' })).toHaveAttribute('aria-selected', 'true');
  const checkout = page.getByRole('region', { name: 'Boulder' });
  await expect(checkout.getByText('£8', { exact: true })).toBeVisible();
  await expect(page.getByText('Card payment is not configured on this server.')).toBeVisible();
  await shootBothWidths(page, 'pricing-billing');

  // The invoices tab: no invoices yet.
  await page.getByRole('tab', { name: 'Invoices' }).click();
  await expect(page).toHaveURL(/\/account\/plans-and-payments\/invoices$/);
  await expect(page.getByText('No invoices yet')).toBeVisible();

  // Back on pricing plans through its tab; the page's own address opens that tab too.
  await page.getByRole('tab', { name: 'Pricing plans' }).click();
  await expect(planCard(page, 'Boulder')).toBeVisible();
  await page.goto('/account/plans-and-payments');
  await expect(page).toHaveURL(/\/account\/plans-and-payments\/pricing-plans$/);
  await expect(planCard(page, 'Pebble').getByText('Current plan')).toBeVisible();
  await context.close();
});

test("[R111] with no plans file: the spec's one free plan, Pebble, current, under the sunset notice; billing without a plan says to choose one", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'pricing-default'), STRONG_PASSWORD);
  await page.goto('/account/plans-and-payments/pricing-plans');
  await expect(page.getByRole('note')).toHaveText('This version of Cairn is sunsetting: upgrades are no longer possible.');
  await expect(page.getByRole('article')).toHaveCount(1);
  const pebble = planCard(page, 'Pebble');
  await expect(pebble.getByText('$0', { exact: true })).toBeVisible();
  await expect(pebble.getByText('Current plan')).toBeVisible();
  await expect(page.getByRole('link', { name: /^Choose/ })).toHaveCount(0);
  await shootBothWidths(page, 'pricing-sunset');

  await page.getByRole('tab', { name: 'Billing' }).click();
  await expect(page.getByText('No plan chosen')).toBeVisible();
  await page.getByRole('link', { name: 'See pricing plans' }).click();
  await expect(page).toHaveURL(/\/account\/plans-and-payments\/pricing-plans$/);
});
