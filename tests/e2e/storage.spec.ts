import type { Page } from '@playwright/test';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { embeddedGatewayTags, embeddedGatewayUrl } from './embeddedGateway';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';
import { getApiJson } from './pages/pageApi';

async function openStorage(page: Page): Promise<void> {
  await page.goto('/storage');
  await expect(page.getByRole('heading', { name: 'Storage', level: 1 })).toBeVisible();
}

// Spec 000 section 2, Storage page; SYNC_SPEC R38-R39.
test('storage page: both cards with Verify balance, and the empty state before any permanent upload', async ({ page, shoot }, testInfo) => {
  test.setTimeout(120_000);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'storage-empty'), STRONG_PASSWORD);
  await openStorage(page);
  const permanent = page.getByRole('region', { name: 'Permanent storage' });
  const cloud = page.getByRole('region', { name: 'Cloud storage' });
  // Fetched on opening the page, before any 'Verify balance'.
  await expect(permanent).toContainText(/of \d[\d.]* [KMGT]?B used/);
  await expect(page.getByText(/^Checked /)).toBeVisible();
  await expect(permanent).toContainText('free storage left');
  await expect(cloud).toContainText('free storage left');
  for (const label of ['Documents', 'Photos', 'Video', 'Audio', 'Other', 'Free']) await expect(permanent.getByText(label, { exact: true })).toBeVisible();
  await expect(page.getByText('No network transactions')).toBeVisible();

  const verified = page.waitForResponse((r) => r.url().endsWith('/api/storage') && r.request().method() === 'GET' && r.ok());
  await page.getByRole('button', { name: 'Verify balance' }).click();
  await verified;
  await expect(page.getByText(/^Checked /)).toBeVisible();
  await shoot('storage-empty');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot('storage-empty-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole('button', { name: 'Verify balance' })).toBeVisible();
  await shoot('storage-empty-375');
});

test('a file uploaded to a private permanent vault is listed by name on /storage and reaches Successfully on the network live, in the file info and on the timeline too', async ({ page, shoot }, testInfo) => {
  test.setTimeout(240_000);
  const mark = `S${Date.now().toString(36)}`;
  const name = `ledger-${mark}.txt`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'storage'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Archive ${mark}`, { storage: 'Permanent storage', privacy: 'Private' });
  await room.pickFiles([{ name, mimeType: 'text/plain', buffer: Buffer.from(`${mark} the quarterly ledger`) }]);
  await room.confirmUpload();
  await expect(room.row(name)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 30_000 });
  const vaultUrl = page.url();
  // The upload's operation is on the server (its row scheduled) once the outbox is empty.
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 30_000 });
  // `npm start` runs an embedded arlocal that mines every few seconds (the relay's slice).
  await getApiJson(page, '/api/config/arweave');

  // In-app navigation: opening the page looks for news (no reload, no new sign-in refresh).
  await page.getByRole('link', { name: 'Storage', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'Storage', level: 1 })).toBeVisible();
  const row = page.getByTestId('storage-tx').filter({ hasText: name });
  // The name comes from this device: the server only has it sealed.
  await expect(row).toBeVisible({ timeout: 30_000 });
  // Documents usage counts the text file (its MIME type is opened only here).
  await expect(page.getByTestId('usage-permanent-documents')).not.toHaveText('0 B');
  // The status moves live, without a reload, to COMMITTED.
  await expect(row).toContainText('Successfully on the network', { timeout: 120_000 });
  // The embedded arlocal is the server's alone (R54): no viewer the browser could open, no link.
  await expect(row.getByRole('link', { name: 'View' })).toHaveCount(0);
  await expect(row).toContainText(/\d AR/);

  // The filter narrows by name and by status.
  await page.getByRole('textbox', { name: 'Name' }).fill('no such file');
  await expect(page.getByText('No transactions match this filter.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill(mark);
  await expect(row).toBeVisible();
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Rejected by the network' }).click();
  await expect(row).toBeHidden();
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Successfully on the network' }).click();
  await expect(row).toBeVisible();
  await shoot('storage-transactions');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot('storage-transactions-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(row).toBeVisible();
  await expect(row).toContainText(name);
  await shoot('storage-transactions-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Offline the page shows what the device holds; 'Verify balance' says it could not check.
  await page.context().setOffline(true);
  await page.getByRole('link', { name: 'Notifications', exact: true }).first().click();
  await page.getByRole('link', { name: 'Storage', exact: true }).first().click();
  await expect(row).toContainText('Successfully on the network');
  await expect(page.getByRole('region', { name: 'Permanent storage' })).toContainText(/of \d[\d.]* [KMGT]?B used/);
  await page.getByRole('button', { name: 'Verify balance' }).click();
  await expect(page.getByText('Your balance could not be verified. Check your connection and try again.')).toBeVisible();
  await page.context().setOffline(false);

  // The file info drawer and the timeline's dot read the same cache.
  await page.goto(vaultUrl);
  await room.rowAction(name, 'Info');
  const drawer = page.getByRole('dialog', { name: 'File info' });
  await expect(drawer).toContainText('Successfully on the network');
  await expect(drawer.getByRole('link', { name: 'Open on the gateway' })).toHaveAttribute('href', /\/[A-Za-z0-9_-]{43}$/);
  // The embedded arlocal has no viewer the browser may reach (R54): no transaction link.
  await expect(drawer.getByRole('link', { name: 'View the transaction' })).toHaveCount(0);
  await expect(drawer).not.toContainText('Your file is not yet available on the gateway.');
  // Issue 7: what the gateway serves for a private vault's file is its ciphertext, with no name.
  const itemId = /\/([A-Za-z0-9_-]{43})$/.exec((await drawer.getByRole('link', { name: 'Open on the gateway' }).getAttribute('href')) ?? '')![1]!;
  const served = Buffer.from(await (await fetch(`${embeddedGatewayUrl()}/${itemId}`)).arrayBuffer());
  const plaintext = Buffer.from(`${mark} the quarterly ledger`);
  // One chunk: the plaintext's length plus its 16-byte AES-GCM tag (CHUNK_TAG_BYTES).
  expect(served.length).toBe(plaintext.length + 16);
  expect(served.includes(plaintext)).toBe(false);
  expect(served.includes(Buffer.from(mark))).toBe(false);
  expect(served.includes(Buffer.from('quarterly'))).toBe(false);
  // R85: ids only (which vault, which blob), no name or type.
  expect(await embeddedGatewayTags(itemId)).toEqual({
    'App-Name': 'Cairn',
    'Cairn-Item': 'file-version',
    'Cairn-Format-Version': '1',
    'Vault-Id': /\/vaults\/[^/]+\/([^/]+)/.exec(new URL(vaultUrl).pathname)![1],
    'Blob-Id': expect.stringMatching(/^[A-Za-z0-9_-]+$/),
  });
  await shoot('storage-file-info');
  await page.keyboard.press('Escape');
  // Committed versions show no dot on the timeline (spec 000 section 2, Timeline).
  await page.getByRole('tab', { name: 'Timeline' }).click();
  await expect(page.getByTestId('timeline-entry').filter({ hasText: name })).toBeVisible();
  await expect(page.getByRole('img', { name: "Your file is with the provider, next we'll bundle it with other files" })).toHaveCount(0);
});
