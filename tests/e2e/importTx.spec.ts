import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { SignupFlow } from './pages/SignupFlow';
import { pendingMark, VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

/** Add an asset > Import > Network transaction: the import-by-transaction modal. */
async function openImportModal(page: Page) {
  await page.getByRole('button', { name: 'Add an asset' }).click();
  await page.getByRole('menuitem', { name: 'Import' }).click();
  await page.getByRole('menuitem', { name: 'Network transaction' }).click();
  const modal = page.getByRole('dialog', { name: 'Import by transaction' });
  await expect(modal).toBeVisible();
  return modal;
}

// Spec 000 sections 2, 5 and 8; docs/SYNC_SPEC.md R42-R43.
test('import by network transaction: a relayed file imported by its id into a folder, byte for byte; 42 characters cannot be submitted; an unknown id fails; a cancel stops it', async ({ page, shoot }, testInfo) => {
  test.setTimeout(240_000);
  const mark = `I${Date.now().toString(36)}`;
  const name = `ridge-survey-${mark}.csv`;
  const content = Buffer.concat([Buffer.from(`cairn,lat,lon\n${mark},57.1,-4.2\n`), randomBytes(50_000)]);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'import'), STRONG_PASSWORD);
  const room = new VaultRoom(page);

  // A private permanent vault offers no Import (network transaction: public permanent vaults only).
  await room.createVault(`Private ${mark}`, { storage: 'Permanent storage', privacy: 'Private' });
  await page.getByRole('button', { name: 'Add an asset' }).click();
  await expect(page.getByRole('menuitem', { name: 'Upload file' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Import' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await room.createVault(`Field archive ${mark}`, { storage: 'Permanent storage', privacy: 'Public', tour: 'none' });
  await room.pickFiles([{ name, mimeType: 'text/csv', buffer: content }]);
  await room.confirmUpload();
  await expect(room.row(name)).toBeVisible({ timeout: 30_000 });
  await expect(pendingMark(room.row(name))).toHaveCount(0, { timeout: 30_000 });

  // Its data item id, from the file info drawer's gateway link once on the network.
  await room.rowAction(name, 'Info');
  const drawer = page.getByRole('dialog', { name: 'File info' });
  await expect(drawer).toContainText('Successfully on the network', { timeout: 150_000 });
  const href = await drawer.getByRole('link', { name: 'Open on the gateway' }).getAttribute('href');
  const txId = /\/([A-Za-z0-9_-]{43})$/.exec(href ?? '')?.[1];
  expect(txId, `a data item id in ${href}`).toBeTruthy();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  await room.createFolder('Imported');
  await room.openFolder('Imported');

  // The submenu by keyboard: ArrowRight opens it, Enter picks its entry.
  await page.getByRole('button', { name: 'Add an asset' }).click();
  const importEntry = page.getByRole('menuitem', { name: 'Import' });
  await importEntry.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('menuitem', { name: 'Network transaction' })).toBeFocused();
  await page.keyboard.press('Enter');
  let modal = page.getByRole('dialog', { name: 'Import by transaction' });
  await expect(modal).toBeVisible();
  const field = modal.getByRole('textbox', { name: 'Transaction ID' });
  const submit = modal.getByRole('button', { name: 'Import' });
  await expect(field).toBeFocused();
  await expect(submit).toBeDisabled();

  // 42 characters: the rule shows and Import stays disabled; Enter does nothing.
  await field.fill(txId!.slice(0, 42));
  await expect(modal.getByText('The transaction id must be exactly 43 characters.')).toBeVisible();
  await expect(submit).toBeDisabled();
  await field.press('Enter');
  await expect(modal).toBeVisible();
  await shoot('import-tx-42');
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(modal.getByText('The transaction id must be exactly 43 characters.')).toBeVisible();
  await shoot('import-tx-42-375');
  await page.setViewportSize(viewport);

  // An id the network does not know: 'Failed to import files', nothing added, the id kept to correct.
  const unknown = 'Zk9vQmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo';
  await field.fill(unknown);
  await expect(modal.getByText('The transaction id must be exactly 43 characters.')).toBeHidden();
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByText('Failed to import files')).toBeVisible();
  await expect(field).toHaveValue(unknown);
  await expect(page.getByText('This folder is empty')).toBeVisible();

  // Cancelled while the item is on its way: 'Importing cancelled', nothing added.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/arweave/tx/**', async (route) => {
    await held;
    await route.continue().catch(() => {});
  });
  await field.fill(txId!);
  await submit.click();
  await expect(modal.getByText(/^Importing\.\.\./)).toBeVisible();
  await expect(modal.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  await shoot('import-tx-importing');
  await modal.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Importing cancelled')).toBeVisible();
  release();
  await page.unroute('**/api/arweave/tx/**');
  await expect(page.getByText('This folder is empty')).toBeVisible();

  // The real import, through clicks this time: added here with the same name, downloaded byte for byte.
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'Cancel' }).click();
  await expect(modal).toBeHidden();
  modal = await openImportModal(page);
  await modal.getByRole('textbox', { name: 'Transaction ID' }).fill(txId!);
  await shoot('import-tx-ready');
  await modal.getByRole('button', { name: 'Import' }).click();
  await expect(modal).toBeHidden({ timeout: 30_000 });
  await expect(room.row(name)).toBeVisible({ timeout: 30_000 });
  await expect(pendingMark(room.row(name))).toHaveCount(0, { timeout: 30_000 });
  expect((await room.download(name)).equals(content)).toBe(true);

  // Importing it again here is a duplicate, resolved like an upload: Keep both.
  modal = await openImportModal(page);
  await modal.getByRole('textbox', { name: 'Transaction ID' }).fill(txId!);
  await modal.getByRole('button', { name: 'Import' }).click();
  const duplicates = page.getByRole('dialog', { name: 'This file already exists' });
  await expect(duplicates).toContainText(name, { timeout: 30_000 });
  await duplicates.getByRole('radio', { name: 'Keep both' }).check();
  await duplicates.getByRole('button', { name: 'Continue' }).click();
  await expect(room.row(name.replace('.csv', ' copy.csv'))).toBeVisible({ timeout: 30_000 });

  // The menu at 375 px.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole('button', { name: 'Add an asset' }).click();
  await page.getByRole('menuitem', { name: 'Import' }).click();
  await expect(page.getByRole('menuitem', { name: 'Network transaction' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Network transaction' })).toBeInViewport({ ratio: 1 });
  await shoot('import-tx-menu-375', { fullPage: false });
  await page.getByRole('menuitem', { name: 'Network transaction' }).click();
  modal = page.getByRole('dialog', { name: 'Import by transaction' });
  await modal.getByRole('textbox', { name: 'Transaction ID' }).fill(txId!);
  await shoot('import-tx-ready-375');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot('import-tx-ready-375-dark');
});
