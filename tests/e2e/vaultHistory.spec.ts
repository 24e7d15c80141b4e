import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

// Spec 000 section 2 (Vault info: contract link, transaction history link); SYNC_SPEC R84.
test('a private permanent vault shows its contract and its transaction history, whose runs reach the network', async ({ page, shoot }, testInfo) => {
  test.setTimeout(240_000);
  const mark = `H${Date.now().toString(36)}`;
  const vaultName = `Ledger ${mark}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'history'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Permanent storage', privacy: 'Private' });
  await room.pickFiles([{ name: `notes-${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} first entry`) }]);
  await room.confirmUpload();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 30_000 });

  await room.openVaultMenu(vaultName, 'Vault info');
  const drawer = page.getByRole('dialog', { name: 'Vault info' });
  await expect(drawer.getByText('Contract', { exact: true })).toBeVisible();
  await expect(drawer.getByText('Transaction history', { exact: true })).toBeVisible();
  // The embedded gateway publishes no viewer (R54): once on the network, the contract's id links
  // to the in-app history. Before that, its status as the storage page words it.
  const contract = drawer.getByRole('link', { name: /^Contract [A-Za-z0-9_-]{43}$/ });
  await expect(contract.or(drawer.getByText(/With the provider|Your file is being bundled|With the network/))).toBeVisible();
  await shoot('vault-info-contract');

  await drawer.getByRole('link', { name: 'View transaction history' }).click();
  await expect(page).toHaveURL(/\/history$/);
  await expect(page.getByRole('heading', { name: 'Transaction history' })).toBeVisible();
  const items = page.getByRole('list', { name: 'Network items' });
  // The vault's creation, the upload and the key ring are one burst: the first run starts at change 1.
  await expect(items.getByTestId('history-item').first()).toContainText(/Changes? 1(–\d+)? · Contract/, { timeout: 60_000 });
  // The relay posts and the embedded arlocal mines every few seconds: every run reaches the network.
  await expect(items.getByTestId('history-item').first()).toContainText('Successfully on the network', { timeout: 120_000 });
  await expect(items.getByTestId('history-item').filter({ hasNotText: 'Successfully on the network' })).toHaveCount(0, { timeout: 120_000 });
  await shoot('vault-history');

  // Back in the drawer, the contract is the first run's item.
  const firstId = ((await items.getByTestId('history-item').first().getByTestId('history-item-id').textContent()) ?? '').trim();
  expect(firstId).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await room.openVaultMenu(vaultName, 'Vault info');
  await expect(drawer.getByRole('link', { name: `Contract ${firstId}` })).toBeVisible();
  await shoot('vault-info-contract-committed');

  await page.setViewportSize({ width: 375, height: 800 });
  await shoot('vault-info-contract-375');
  await drawer.getByRole('link', { name: `Contract ${firstId}` }).click();
  await expect(page.getByRole('heading', { name: 'Transaction history' })).toBeVisible();
  await expect(items.getByTestId('history-item').first()).toContainText(firstId);
  await shoot('vault-history-375');
});
