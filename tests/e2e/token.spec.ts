/**
 * Issue 21, the U token as two users meet it (SYNC_SPEC R105-R110): a permanent upload earns the
 * first user $U once it is COMMITTED (the balance moves live on /rewards, with the Rewards dot,
 * and is verified against the ledger's replay); the first sends part of it to the second by the
 * address the second's /rewards shows, through the Send $U modal (a bad address and an amount over
 * the balance show the spec's texts, MAX fills the balance, Enter sends); both balances are right
 * on both screens, live and after a reload. The server is this spec's own (KillableServer) with
 * 200,000,000 bytes of permanent storage (the free plan may then send, spec 002 section 5) and a
 * gateway that mines every second; desktop only (playwright.config.ts), its 375 px screenshots
 * taken here.
 */
import type { Browser, Page } from '@playwright/test';
import { KillableServer } from './KillableServer';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail, shootBothWidths } from './fixtures';

/** The slice's own ports (18796-18799); E2E_TOKEN_PORT moves them. */
const PROXY_PORT = Number(process.env.E2E_TOKEN_PORT ?? 18_796);
const server = new KillableServer(PROXY_PORT, PROXY_PORT + 1);
const VIEWPORT = { width: 1280, height: 800 };
const MICRO = 1_000_000;

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: VIEWPORT });
  const page = await context.newPage();
  await new SignupFlow(page).createAccount(server.dataDir, email, STRONG_PASSWORD);
  return page;
}

/** The balance /rewards shows, in millionths (read from its 4 decimals). */
async function shownBalance(page: Page): Promise<number> {
  const label = await page.getByRole('status', { name: /^Balance: / }).getAttribute('aria-label');
  const match = /^Balance: ([\d,]+)\.(\d{4}) \$U$/.exec(label ?? '');
  expect(match, `balance label "${label}"`).not.toBeNull();
  return Number(match![1]!.replace(/,/g, '')) * MICRO + Number(match![2]) * 100;
}

function formatted(micro: number): string {
  return `${Math.floor(micro / MICRO).toLocaleString('en-US')}.${String(Math.floor((micro % MICRO) / 100)).padStart(4, '0')}`;
}

const VERIFIED = "Verified: the ledger's signed entries add up to this balance.";

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await server.start({ PERMANENT_STORAGE_BYTES: '200000000', ARLOCAL_MINE_MS: '1000' });
});

test.afterAll(async () => {
  await server.stop();
});

test('[R107][R108][R110] a permanent upload earns $U; the uploader sends part of it to another user by address, and both balances are right on both screens', async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  const sender = await signedIn(browser, uniqueEmail(testInfo, 'token-sender'));
  const recipient = await signedIn(browser, uniqueEmail(testInfo, 'token-recipient'));

  // The recipient's /rewards: nothing yet, verified, and the address to give.
  await recipient.goto('/rewards');
  await expect(recipient.getByRole('status', { name: 'Balance: 0.0000 $U' })).toBeVisible({ timeout: 30_000 });
  await expect(recipient.getByText(VERIFIED)).toBeVisible({ timeout: 30_000 });
  const recipientAddress = ((await recipient.getByLabel('Your address', { exact: true }).textContent()) ?? '').trim();
  expect(recipientAddress).toMatch(/^[A-Za-z0-9_-]{43}$/);

  // The sender uploads 1.5 MiB to a permanent vault and watches /rewards until it is COMMITTED.
  const room = new VaultRoom(sender);
  await room.createVault(`Tokens ${Date.now().toString(36)}`, { storage: 'Permanent storage', privacy: 'Private' });
  const name = 'survey-scan.bin';
  await room.pickFiles([{ name, mimeType: 'application/octet-stream', buffer: Buffer.alloc(1.5 * 1024 * 1024, 7) }]);
  await room.confirmUpload();
  await expect(room.row(name)).toBeVisible({ timeout: 30_000 });
  await expect(sender.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 60_000 });
  await sender.getByRole('link', { name: /^Rewards/ }).first().click();
  await expect(sender.getByRole('heading', { name: 'Rewards', level: 1 })).toBeVisible();
  await expect(sender.getByRole('status', { name: 'Balance: 0.0000 $U' })).toBeVisible({ timeout: 30_000 });
  // Live: the reward's tokenBalance message moves the figure without a reload (about 1.5 U: 1 U per MiB stored).
  await expect(sender.getByRole('status', { name: /^Balance: 1\.\d{4} \$U$/ })).toBeVisible({ timeout: 180_000 });
  // The Rewards dot: a balance over 100 millionths.
  await expect(sender.getByRole('link', { name: 'Rewards, unread items' })).toBeVisible();
  await sender.reload();
  await expect(sender.getByText(VERIFIED)).toBeVisible({ timeout: 30_000 });
  const earned = await shownBalance(sender);
  expect(earned).toBeGreaterThan(MICRO);

  // The Send $U modal: the spec's texts for a bad address and an amount over the balance.
  await sender.getByRole('button', { name: 'Send $U' }).click();
  const dialog = sender.getByRole('dialog', { name: 'Send $U' });
  await expect(dialog).toBeVisible();
  const address = dialog.getByRole('textbox', { name: 'Recipient address' });
  const amount = dialog.getByRole('textbox', { name: 'Amount' });
  const send = dialog.getByRole('button', { name: 'Send', exact: true });
  await address.fill(recipientAddress.slice(0, 42));
  await amount.fill('1000');
  await expect(dialog.getByText('Incorrect format for an Arweave wallet address.')).toBeVisible();
  await expect(dialog.getByText('Amount exceeds total balance.')).toBeVisible();
  await expect(send).toBeDisabled();
  await shootBothWidths(sender, 'token-send-errors');
  // MAX fills the whole balance (within it: no error).
  await dialog.getByRole('button', { name: 'MAX' }).click();
  await expect(dialog.getByText('Amount exceeds total balance.')).toBeHidden();
  expect(Number(await amount.inputValue()) * MICRO).toBeGreaterThanOrEqual(earned);
  // Typed with the keyboard, sent with Enter.
  await address.fill('');
  await address.pressSequentially(recipientAddress);
  await expect(dialog.getByText('Incorrect format for an Arweave wallet address.')).toBeHidden();
  await amount.fill('');
  await amount.pressSequentially('0.5');
  await expect(send).toBeEnabled();
  await amount.press('Enter');
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  const left = earned - MICRO / 2;
  await expect(sender.getByRole('status', { name: `Balance: ${formatted(left)} $U` })).toBeVisible({ timeout: 30_000 });
  await expect(sender.getByText(VERIFIED)).toBeVisible({ timeout: 30_000 });
  await shootBothWidths(sender, 'token-after-send');

  // The recipient's open page moves live, and reads the same after a reload.
  await expect(recipient.getByRole('status', { name: 'Balance: 0.5000 $U' })).toBeVisible({ timeout: 30_000 });
  await expect(recipient.getByRole('link', { name: 'Rewards, unread items' })).toBeVisible();
  await recipient.reload();
  await expect(recipient.getByRole('status', { name: 'Balance: 0.5000 $U' })).toBeVisible({ timeout: 30_000 });
  await expect(recipient.getByText(VERIFIED)).toBeVisible({ timeout: 30_000 });
  await sender.reload();
  await expect(sender.getByRole('status', { name: `Balance: ${formatted(left)} $U` })).toBeVisible({ timeout: 30_000 });
  await shootBothWidths(recipient, 'token-recipient');

  // More than is left: the form says so before anything is sent.
  await sender.getByRole('button', { name: 'Send $U' }).click();
  await dialog.getByRole('textbox', { name: 'Recipient address' }).fill(recipientAddress);
  await dialog.getByRole('textbox', { name: 'Amount' }).fill(String(Math.ceil(left / MICRO) + 1));
  await expect(dialog.getByText('Amount exceeds total balance.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  // A well-formed address that is no account here: the server's refusal lands on the address, nothing is sent.
  await dialog.getByRole('textbox', { name: 'Recipient address' }).fill('A'.repeat(43));
  await dialog.getByRole('textbox', { name: 'Amount' }).fill('0.1');
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(dialog.getByText('No Cairn account has this address.')).toBeVisible();
  await sender.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(sender.getByRole('status', { name: `Balance: ${formatted(left)} $U` })).toBeVisible();
});

test("[R110] on the free plan with 100,000,000 bytes of permanent storage, Send is disabled and the modal says why", async ({ page }, testInfo) => {
  // The config's server: the default free plan, 100 MB permanent (spec 002 section 5).
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'token-free'), STRONG_PASSWORD);
  await page.goto('/rewards');
  await expect(page.getByRole('status', { name: 'Balance: 0.0000 $U' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('link', { name: 'Rewards, unread items' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Send $U' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send $U' });
  await expect(dialog.getByText('Sending $U needs a paid plan or more than 100 MB of permanent storage.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Recipient address' }).fill('654KyaguCVnaojCIaY-ZHqj7KOByyUwCMWi4mJKOhyw');
  await dialog.getByRole('textbox', { name: 'Amount' }).fill('0');
  await expect(dialog.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await shootBothWidths(page, 'token-free-plan');
});
