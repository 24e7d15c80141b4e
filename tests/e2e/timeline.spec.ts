import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { inviteAndAccept } from './pages/Members';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

const SCREENSHOT_DIR = join(process.cwd(), '.tmp', 'screenshots');

async function shootBothWidths(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.screenshot({ path: join(SCREENSHOT_DIR, `timeline-${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `timeline-${name}-375.png`), fullPage: true });
  await page.setViewportSize(viewport);
}

const text = (name: string, body: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(body) });

async function openTimeline(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Timeline' }).click();
  await expect(page).toHaveURL(/\/timeline$/);
}

function entry(page: Page, words: string | RegExp) {
  return page.getByTestId('timeline-entry').filter({ hasText: words });
}

// Spec 000 section 2, Timeline and Vault room (filter drawer); SYNC_SPEC R28-R29.
test('timeline: two members see each other\'s uploads, folders, renames and hides by name, batch uploads grouped, and the Action filter narrows the list', async ({ page, browser }, testInfo) => {
  test.setTimeout(300_000);
  const ownerEmail = uniqueEmail(testInfo, 'owner');
  const memberEmail = uniqueEmail(testInfo, 'member');
  const vaultName = `Ridge survey ${Date.now().toString(36)}`;

  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const member = await other.newPage();
  await new SignupFlow(member).createAccount(DATA_DIR, memberEmail, STRONG_PASSWORD);

  // The owner: a private vault, three files in one pick, a folder.
  await new SignupFlow(page).createAccount(DATA_DIR, ownerEmail, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private', terms: 'Survey use only.' });
  const ownerFiles = [text('north.txt', 'n'), text('south.txt', 's'), text('east.txt', 'e')];
  await room.pickFiles(ownerFiles);
  await room.confirmUpload();
  for (const f of ownerFiles) await expect(room.row(f.name)).toBeVisible({ timeout: 30_000 });
  await room.uploadBox().getByRole('button', { name: 'Close' }).click();
  await room.createFolder('Maps');
  const vaultUrl = page.url();

  // The empty-state-free timeline of the owner alone, before anyone else joins.
  await openTimeline(page);
  await expect(entry(page, 'You uploaded 3 files')).toBeVisible({ timeout: 30_000 });

  // Invite the member as CONTRIBUTOR; they accept the terms.
  await page.goto(vaultUrl);
  await inviteAndAccept(page, vaultName, member, memberEmail, 'CONTRIBUTOR');

  // The member: two files in one pick, a folder they then rename.
  const memberRoom = new VaultRoom(member);
  await expect(member.getByRole('button', { name: 'Add an asset' })).toBeEnabled({ timeout: 30_000 });
  const memberFiles = [text('log-1.txt', 'one'), text('log-2.txt', 'two')];
  await memberRoom.pickFiles(memberFiles);
  await memberRoom.confirmUpload();
  for (const f of memberFiles) await expect(memberRoom.row(f.name)).toBeVisible({ timeout: 30_000 });
  await memberRoom.uploadBox().getByRole('button', { name: 'Close' }).click();
  await memberRoom.createFolder('Cairns');
  await memberRoom.rowAction('Cairns', 'Rename');
  await member.getByRole('dialog').getByRole('textbox').fill('Cairn sites');
  await member.getByRole('dialog').getByRole('button', { name: /Rename|Save/ }).click();
  await expect(memberRoom.row('Cairn sites')).toBeVisible();

  // The owner hides a file.
  await page.goto(vaultUrl);
  await expect(room.row('log-1.txt')).toBeVisible({ timeout: 30_000 });
  await room.rowAction('east.txt', 'Hide');
  await page.getByRole('dialog').getByRole('button', { name: 'Hide' }).click();
  await expect(room.row('east.txt')).toBeHidden();

  // The owner's timeline: their own actions as 'You', the member's by e-mail.
  await openTimeline(page);
  await expect(entry(page, 'You hid the file east.txt')).toBeVisible({ timeout: 30_000 });
  await expect(entry(page, `${memberEmail} renamed the folder to Cairn sites`)).toBeVisible({ timeout: 30_000 });
  await expect(entry(page, `${memberEmail} created the folder Cairns`)).toBeVisible();
  await expect(entry(page, `${memberEmail} uploaded 2 files`)).toBeVisible();
  await expect(entry(page, `${memberEmail} accepted the terms of access`)).toBeVisible();
  await expect(entry(page, `You invited ${memberEmail} as Contributor`)).toBeVisible();
  await expect(entry(page, 'You created the folder Maps')).toBeVisible();
  await expect(entry(page, `You created the vault ${vaultName}`)).toBeVisible();
  // Newest first: the hide heads the list, the vault's creation ends it.
  await expect(page.getByTestId('timeline-entry').first()).toContainText('You hid the file east.txt');
  await expect(page.getByTestId('timeline-entry').last()).toContainText(`You created the vault ${vaultName}`);
  await expect(page.getByRole('heading', { name: 'Today' })).toBeVisible();

  const uploadBox = room.uploadBox();
  if (await uploadBox.isVisible()) await uploadBox.getByRole('button', { name: 'Close' }).click();
  // A grouped upload expands to its files.
  const group = entry(page, 'You uploaded 3 files');
  await group.getByRole('button', { name: /You uploaded 3 files/ }).click();
  for (const f of ownerFiles) await expect(group.getByRole('listitem').filter({ hasText: f.name })).toBeVisible();
  await shootBothWidths(page, 'owner');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'timeline-owner-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  // The Action filter narrows the list to uploads.
  const allCount = await page.getByTestId('timeline-entry').count();
  await page.getByRole('button', { name: 'Filter the timeline' }).click();
  const drawer = page.getByRole('dialog', { name: 'Filter the timeline' });
  await drawer.getByRole('checkbox', { name: 'Uploads' }).check();
  await shootBothWidths(page, 'filter-drawer');
  await drawer.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('timeline-entry')).toHaveCount(2);
  await expect(entry(page, 'You uploaded 3 files')).toBeVisible();
  await expect(entry(page, `${memberEmail} uploaded 2 files`)).toBeVisible();
  expect(allCount).toBeGreaterThan(2);
  // Filters reset when the path changes.
  await page.getByRole('tab', { name: 'Files' }).click();
  await openTimeline(page);
  await expect(page.getByTestId('timeline-entry')).toHaveCount(allCount);

  // The member's timeline: the owner's actions by e-mail, their own as 'You'.
  await member.goto(member.url().replace(/\/assets.*$/, '/timeline'));
  await expect(entry(member, `${ownerEmail} hid the file east.txt`)).toBeVisible({ timeout: 30_000 });
  await expect(entry(member, 'You renamed the folder to Cairn sites')).toBeVisible();
  await expect(entry(member, 'You uploaded 2 files')).toBeVisible();
  await expect(entry(member, `${ownerEmail} uploaded 3 files`)).toBeVisible();
  await expect(entry(member, `${ownerEmail} created the folder Maps`)).toBeVisible();
  await shootBothWidths(member, 'member');

  // An action arriving while the timeline is open is highlighted, for 1 s.
  await member.evaluate(() => {
    const w = window as unknown as { highlighted: string[] };
    w.highlighted = [];
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-highlighted]')) w.highlighted.push(el.textContent ?? '');
    }).observe(document.body, { subtree: true, attributes: true, childList: true });
  });
  await page.getByRole('tab', { name: 'Files' }).click();
  await room.createFolder('Late folder');
  const late = entry(member, `${ownerEmail} created the folder Late folder`);
  await expect(late).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => member.evaluate(() => (window as unknown as { highlighted: string[] }).highlighted.some((t) => t.includes('Late folder')))).toBe(true);
  await expect(late).not.toHaveAttribute('data-highlighted', { timeout: 3_000 });

  // The Files toolbar's 'Filter the timeline' opens the timeline with its filters.
  await page.getByRole('button', { name: 'Filter the timeline' }).click();
  await expect(page).toHaveURL(/\/timeline$/);
  await expect(page.getByRole('dialog', { name: 'Filter the timeline' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Filter the timeline' }).getByRole('button', { name: 'Done' }).click();

  // Offline, an action is on the timeline at once, marked Pending until the server has it.
  await other.setOffline(true);
  await member.getByRole('tab', { name: 'Files' }).click();
  await memberRoom.createFolder('Offline folder');
  await openTimeline(member);
  const offline = entry(member, 'You created the folder Offline folder');
  await expect(offline).toContainText('Pending');
  await expect(member.getByTestId('timeline-entry').first()).toContainText('Offline folder');
  await other.setOffline(false);
  await expect(offline).not.toContainText('Pending', { timeout: 30_000 });
  await other.close();
});
