import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { SignupFlow } from './pages/SignupFlow';
import { pendingMark, VaultRoom } from './pages/VaultRoom';
import { embeddedGatewayTags, embeddedGatewayUrl } from './embeddedGateway';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

/** Waits in the file info drawer until the file's item is committed; answers its data item id. */
async function committedItemId(page: Page, room: VaultRoom, name: string): Promise<string> {
  await room.rowAction(name, 'Info');
  const drawer = page.getByRole('dialog', { name: 'File info' });
  const gateway = drawer.getByRole('link', { name: 'Open on the gateway' });
  // The embedded arlocal mines every few seconds; the status arrives over the socket.
  await expect(gateway).toBeVisible({ timeout: 120_000 });
  const href = (await gateway.getAttribute('href')) ?? '';
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  return /\/([A-Za-z0-9_-]{43})$/.exec(href)![1]!;
}

// Spec 000 sections 2, 3, 5, 6 and 8 (Generate JSON metadata); issue 7: "a file in a public
// permanent vault is readable ... at its gateway URL"; SYNC_SPEC R45-R46.
test('Generate JSON metadata: a public permanent vault\'s manifest.json maps the folder path to the file\'s data item, and the gateway serves both', async ({ page, browser, shoot }, testInfo) => {
  test.setTimeout(300_000);
  const mark = `M${Date.now().toString(36)}`;
  const vaultName = `Atlas ${mark}`;
  const text = Buffer.from(`${mark}: the public survey of the northern ridge\n`);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'manifest'), STRONG_PASSWORD);
  const room = new VaultRoom(page);

  // Only public permanent vaults have the link (spec 000 section 5).
  await room.createVault(`Cloud ${mark}`, { storage: 'Cloud storage', privacy: 'Public' });
  await expect(page.getByRole('heading', { level: 1, name: `Cloud ${mark}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Generate JSON metadata' })).toHaveCount(0);
  // 'Add new version' from the file menu: the picked file becomes the next version, under the file's name.
  await room.pickFiles([{ name: 'draft.txt', mimeType: 'text/plain', buffer: Buffer.from('first draft') }]);
  await room.confirmUpload();
  await expect(pendingMark(room.row('draft.txt'))).toHaveCount(0, { timeout: 30_000 });
  const chooser = page.waitForEvent('filechooser');
  await room.rowAction('draft.txt', 'Add new version');
  await (await chooser).setFiles({ name: 'draft-final.txt', mimeType: 'text/plain', buffer: Buffer.from('final draft, longer') });
  const versionDialog = page.getByRole('dialog', { name: 'Upload 1 file' });
  await expect(versionDialog.getByText('draft.txt', { exact: true })).toBeVisible();
  await expect(versionDialog.getByText('New version', { exact: true })).toBeVisible();
  await room.confirmUpload();
  await expect(room.row('draft.txt').getByRole('cell', { name: '2', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(pendingMark(room.row('draft.txt'))).toHaveCount(0, { timeout: 30_000 });
  expect((await room.download('draft.txt')).toString('utf8')).toBe('final draft, longer');

  await room.createVault(vaultName, { storage: 'Permanent storage', privacy: 'Public', tour: 'none' });
  const link = page.getByRole('button', { name: 'Generate JSON metadata' });
  await expect(link.getByText('Generate JSON metadata', { exact: true })).toBeVisible();
  await room.createFolder('Survey');
  await room.openFolder('Survey');
  await room.pickFiles([{ name: 'ridge-notes.txt', mimeType: 'text/plain', buffer: text }]);
  await room.confirmUpload();
  await expect(room.row('ridge-notes.txt')).toBeVisible({ timeout: 30_000 });
  await expect(pendingMark(room.row('ridge-notes.txt'))).toHaveCount(0, { timeout: 30_000 });
  // Ordinary files offer a new version.
  await page.getByRole('button', { name: 'Actions for ridge-notes.txt' }).click();
  await expect(page.getByRole('menuitem', { name: 'Add new version' })).toBeVisible();
  await page.keyboard.press('Escape');
  const fileItemId = await committedItemId(page, room, 'ridge-notes.txt');

  // The manifest creation modal: a type must be chosen; the marketplace is 'Soon'.
  await page.getByRole('heading', { level: 1 }).getByRole('link', { name: vaultName }).click();
  await expect(room.row('Survey')).toBeVisible();
  await link.click();
  const modal = page.getByRole('dialog', { name: 'Create manifest' });
  await expect(modal.getByRole('radio', { name: /Marketplace/ })).toBeDisabled();
  await expect(modal.getByText('Soon')).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Create' })).toBeDisabled();
  await modal.getByRole('radio', { name: 'Permanent network' }).check();
  await expect(modal.getByRole('button', { name: 'Create' })).toBeEnabled();
  await shoot('manifest-modal');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot('manifest-modal-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await modal.getByRole('button', { name: 'Create' }).click();
  const confirm = page.getByRole('dialog', { name: 'Create JSON metadata' });
  await expect(confirm).toContainText('listing 1 file by path, saved as manifest.json at the top of the vault');
  await shoot('manifest-confirm');
  await confirm.getByRole('button', { name: 'Create' }).click();
  await expect(room.row('manifest.json')).toBeVisible({ timeout: 30_000 });
  await expect(pendingMark(room.row('manifest.json'))).toHaveCount(0, { timeout: 30_000 });
  // 'Add new version' is blocked for manifest.json (spec 000 section 6).
  await page.getByRole('button', { name: 'Actions for manifest.json' }).click();
  await expect(page.getByRole('menuitem', { name: 'Download' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Add new version' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await shoot('manifest-in-vault');
  const manifestItemId = await committedItemId(page, room, 'manifest.json');

  // The gateway, read from the test with no session (the embedded one is the server's alone, R54:
  // a public gateway would serve the same to any visitor).
  const gateway = embeddedGatewayUrl();
  const served = await fetch(`${gateway}/${fileItemId}`);
  expect(served.ok).toBe(true);
  expect(Buffer.from(await served.arrayBuffer()).equals(text)).toBe(true);
  expect(served.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(await embeddedGatewayTags(fileItemId)).toMatchObject({ 'Content-Type': 'text/plain', 'File-Name': 'ridge-notes.txt' });

  expect(await embeddedGatewayTags(manifestItemId)).toMatchObject({ 'Content-Type': 'application/x.arweave-manifest+json', 'File-Name': 'manifest.json' });
  // The manifest's bytes, as the vault holds them (the gateway serves a manifest by resolving it).
  expect(JSON.parse((await room.download('manifest.json')).toString('utf8'))).toEqual({
    manifest: 'arweave/paths',
    version: '0.2.0',
    index: { path: 'Survey/ridge-notes.txt' },
    paths: { 'Survey/ridge-notes.txt': { id: fileItemId } },
  });
  // The gateway resolves the manifest: its path serves the file, and so does its root (the index).
  for (const url of [`${gateway}/${manifestItemId}/Survey/ridge-notes.txt`, `${gateway}/${manifestItemId}`]) {
    const resolved = await fetch(url);
    expect(resolved.ok).toBe(true);
    expect(Buffer.from(await resolved.arrayBuffer()).equals(text)).toBe(true);
    expect(resolved.headers.get('content-type')).toMatch(/^text\/plain/);
  }
  expect((await fetch(`${gateway}/${manifestItemId}/Survey/elsewhere.txt`)).status).toBe(404);

  // The same file in the public viewer, signed out (issue 7: "readable in the public viewer
  // signed out and at its gateway URL").
  const vaultId = /\/vaults\/active\/([A-Za-z0-9_-]+)\/assets/.exec(page.url())![1]!;
  const signedOut = await browser.newContext({ viewport: page.viewportSize() ?? undefined, acceptDownloads: true, baseURL: new URL(page.url()).origin });
  const guest = await signedOut.newPage();
  await guest.goto(`/public/vaults/active/${vaultId}/assets`);
  await expect(guest.getByRole('heading', { level: 1, name: vaultName })).toBeVisible({ timeout: 30_000 });
  await guest.getByRole('table', { name: 'Files and folders' }).getByRole('link', { name: 'Survey' }).click();
  const guestDownload = guest.waitForEvent('download');
  await guest.getByRole('button', { name: 'Download ridge-notes.txt' }).click();
  expect(readFileSync((await (await guestDownload).path())!).equals(text)).toBe(true);
  await signedOut.close();

  // Generating again adds a version to the same manifest.json.
  await link.click();
  await modal.getByRole('radio', { name: 'Permanent network' }).check();
  await modal.getByRole('button', { name: 'Create' }).click();
  await expect(confirm).toContainText('saved as a new version of manifest.json');
  await confirm.getByRole('button', { name: 'Create' }).click();
  await expect(room.row('manifest.json').getByRole('cell', { name: '2', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(room.row('manifest.json')).toHaveCount(1);

  await page.setViewportSize({ width: 375, height: 800 });
  // 'JSON' below the sm breakpoint (spec 000 section 2: "JSON on mobile").
  await expect(link.getByText('JSON', { exact: true })).toBeVisible();
  await expect(link.getByText('Generate JSON metadata', { exact: true })).toBeHidden();
  await shoot('manifest-toolbar-375');
  // The modal by keyboard at 375 px: focus the link, open it with Enter, pick the type with Space.
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(modal).toBeVisible();
  await modal.getByRole('radio', { name: 'Permanent network' }).focus();
  await page.keyboard.press('Space');
  await expect(modal.getByRole('radio', { name: 'Permanent network' })).toBeChecked();
  await shoot('manifest-modal-375');
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
});
