/**
 * Issue 21, plans as a user meets them (SYNC_SPEC R101): on a server whose plans file lets the
 * free plan own one vault, a new user creates a vault, tries a second, is shown the spec's
 * 'You've hit the vault limit' prompt over the form (nothing is created), sees a vault made offline
 * refused in the vault list once pushed, and follows Upgrade to the pricing plans page. The server is this spec's own (KillableServer) since it runs with a
 * PLANS_FILE; desktop only (playwright.config.ts), with its 375 px screenshots taken here.
 */
import type { Page } from '@playwright/test';
import { planPrice, writePlansFile } from '../../server/testing/plansFixture';
import { KillableServer } from './KillableServer';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { STRONG_PASSWORD, expect, test, uniqueEmail, shootBothWidths } from './fixtures';

/** Forty-six ports above the config's server, free in the suite; E2E_PLANS_PORT moves them (a shared machine's own range). */
const BASE_PORT = Number(process.env.E2E_PORT ?? 18_080);
const PROXY_PORT = Number(process.env.E2E_PLANS_PORT ?? BASE_PORT + 46);
const server = new KillableServer(PROXY_PORT, PROXY_PORT + 1);
const VIEWPORT = { width: 1280, height: 800 };

/** One free plan that allows one vault. */
const PLANS = {
  default_plan: 'pebble',
  plans: [
    {
      id: 'pebble',
      name: 'Pebble',
      price: planPrice(0),
      metadata: { app_features: 'vaults', cloud_gb: '1' },
      storage: { permanent_bytes: 100_000_000, cloud_bytes: 1_000_000_000 },
      limits: { vaults: 1, members: null },
    },
  ],
};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await server.start({ PLANS_FILE: writePlansFile(PLANS) });
});

test.afterAll(async () => {
  await server.stop();
});

test("[R101] at the plan's vault limit a second vault is refused with the upgrade prompt, nothing is created, and Upgrade leads to the pricing plans", async ({
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ baseURL: server.url, viewport: VIEWPORT });
  const page = await context.newPage();
  await new SignupFlow(page).createAccount(server.dataDir, uniqueEmail(testInfo, 'plan-limit'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  const firstName = `Field notes ${Date.now().toString(36)}`;
  await room.createVault(firstName, { storage: 'Cloud storage', privacy: 'Private' });
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 30_000 });

  // The second vault, through the same wizard.
  const secondName = `Second archive ${Date.now().toString(36)}`;
  await room.fillVaultWizard(secondName, { storage: 'Cloud storage', privacy: 'Private' });
  await page.getByRole('button', { name: 'Create vault' }).click();

  const prompt = page.getByRole('dialog', { name: "You've hit the vault limit" });
  await expect(prompt).toBeVisible({ timeout: 30_000 });
  // Still on the form, with what the user typed.
  await expect(page).toHaveURL(/\/create-vault(\?|$)/);
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue(secondName);
  await shootBothWidths(page, 'planLimits-vault-limit');

  // Nothing was created: the vault list holds the first vault only, now and after a reload.
  await prompt.getByRole('button', { name: 'Cancel' }).click();
  await expect(prompt).toBeHidden();
  for (const pass of ['now', 'after a reload']) {
    await page.goto('/vaults');
    await expect(page.getByText(firstName).first(), pass).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(secondName), pass).toHaveCount(0);
    if (pass === 'now') await page.reload();
  }

  // Made offline, a vault waits in the outbox (local first); pushed once back online, the server
  // refuses it, and the vault list says so until the user dismisses it.
  const offlineName = `Made offline ${Date.now().toString(36)}`;
  await room.fillVaultWizard(offlineName, { storage: 'Cloud storage', privacy: 'Private' });
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Create vault' }).click();
  await expect(page).toHaveURL(/\/vaults\/active\/[A-Za-z0-9_-]+\/assets$/, { timeout: 30_000 });
  await context.setOffline(false);
  await page.getByRole('link', { name: 'All vaults' }).click();
  const refusedRow = page.getByRole('row').filter({ hasText: offlineName });
  await expect(refusedRow.getByText('(Not created)')).toBeVisible({ timeout: 30_000 });
  await expect(refusedRow.getByRole('alert')).toContainText("You've hit the vault limit");
  await expect(refusedRow.getByRole('link', { name: 'Upgrade' })).toBeVisible();
  await shootBothWidths(page, 'planLimits-refused-in-list');
  await refusedRow.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByText(offlineName)).toHaveCount(0);
  await expect(page.getByText(firstName).first()).toBeVisible();

  // Trying again opens the prompt again; Upgrade leads to the pricing plans page.
  await room.fillVaultWizard(secondName, { storage: 'Cloud storage', privacy: 'Public' });
  await page.getByRole('button', { name: 'Create vault' }).click();
  await expect(prompt).toBeVisible({ timeout: 30_000 });
  await prompt.getByRole('button', { name: 'Upgrade' }).click();
  await expect(page).toHaveURL(/\/account\/plans-and-payments\/pricing-plans$/);
  await expect(page.getByRole('heading', { name: 'Plans and billing' })).toBeVisible();
  // The pricing plans tab itself, with the user's plan marked.
  await expect(page.getByRole('tab', { name: 'Pricing plans' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('article', { name: 'Pebble' }).getByText('Current plan')).toBeVisible();
  await shootBothWidths(page, 'planLimits-pricing-plans');
  await context.close();
});
