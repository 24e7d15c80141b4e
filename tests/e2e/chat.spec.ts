import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { inviteAndAccept } from './pages/Members';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

const SCREENSHOT_DIR = join(process.cwd(), '.tmp', 'screenshots');

/** Desktop and 375 px screenshots of the page as it is, for review. */
async function shootBothWidths(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.screenshot({ path: join(SCREENSHOT_DIR, `chat-${name}-desktop.png`) });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `chat-${name}-375.png`) });
  await page.setViewportSize(viewport);
}

function messages(page: Page) {
  return page.getByRole('log', { name: 'Messages' }).getByTestId('memo');
}

function message(page: Page, text: string) {
  return messages(page).filter({ has: page.getByTestId('memo-text').getByText(text, { exact: true }) });
}

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
}

// Spec 000 section 2 (Chat), 4 (Reactions), 5 and 6: two members chat live in a private vault.
test('chat: owner and contributor see each other\'s messages and reactions live; text stays inert; a viewer cannot post', async ({ page, browser }, testInfo) => {
  test.setTimeout(300_000);
  const ownerEmail = uniqueEmail(testInfo, 'chat-owner');
  const memberEmail = uniqueEmail(testInfo, 'chat-member');
  const vaultName = `Chat room ${Date.now().toString(36)}`;
  const dialogs: string[] = [];

  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const member = await other.newPage();
  for (const p of [page, member]) p.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await new SignupFlow(member).createAccount(DATA_DIR, memberEmail, STRONG_PASSWORD);

  await new SignupFlow(page).createAccount(DATA_DIR, ownerEmail, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private', terms: 'Be kind in the chat.' });
  const assetsUrl = page.url();
  const chatUrl = assetsUrl.replace(/\/assets$/, '/chat');

  // Invite the member as a CONTRIBUTOR; they accept from the e-mailed link.
  await inviteAndAccept(page, vaultName, member, memberEmail, 'CONTRIBUTOR');

  // The owner opens the Chat tab: the empty state, and the input.
  await page.goto(assetsUrl);
  await page.getByRole('tab', { name: 'Chat' }).click();
  await expect(page).toHaveURL(chatUrl);
  await expect(page.getByText('No messages yet')).toBeVisible();
  await shootBothWidths(page, 'empty');

  // An empty or whitespace-only message is not posted.
  await send(page, '   ');
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await expect(page.getByText('No messages yet')).toBeVisible();

  // The owner writes; the member, with the chat open, sees it without reloading.
  await member.goto(chatUrl);
  await expect(member.getByText('No messages yet')).toBeVisible({ timeout: 30_000 });
  await send(page, 'Welcome to the field season chat.');
  await expect(message(page, 'Welcome to the field season chat.')).toContainText('You');
  await expect(message(member, 'Welcome to the field season chat.')).toBeVisible({ timeout: 15_000 });
  await expect(message(member, 'Welcome to the field season chat.')).toContainText(ownerEmail);

  // Shift+Enter adds a line; Enter sends the two lines as one message.
  const input = member.getByRole('textbox', { name: 'Message' });
  await input.fill('First line');
  await input.press('Shift+Enter');
  await input.pressSequentially('Second line');
  await expect(input).toHaveValue('First line\nSecond line');
  await input.press('Enter');
  await expect(input).toHaveValue('');
  const twoLines = message(page, 'First line\nSecond line');
  await expect(twoLines).toBeVisible({ timeout: 15_000 });
  const box = await twoLines.getByTestId('memo-text').boundingBox();
  const single = await message(page, 'Welcome to the field season chat.').getByTestId('memo-text').boundingBox();
  expect(box!.height).toBeGreaterThan(single!.height * 1.5);
  // New messages are highlighted for 2 s.
  await expect(twoLines.locator('[data-highlighted]')).toHaveCount(0, { timeout: 5_000 });

  // The owner reacts; the member sees the reaction live and adds theirs; clicking one's own removes it.
  await twoLines.getByRole('button', { name: 'Add a reaction' }).click();
  await page.getByRole('button', { name: 'React with 👍' }).click();
  await expect(twoLines.getByRole('button', { name: '👍 1, including you', exact: true })).toBeVisible();
  const seenByMember = message(member, 'First line\nSecond line');
  await expect(seenByMember.getByRole('button', { name: '👍 1', exact: true })).toBeVisible({ timeout: 15_000 });
  await seenByMember.getByRole('button', { name: '👍 1', exact: true }).click();
  await expect(seenByMember.getByRole('button', { name: '👍 2, including you', exact: true })).toBeVisible();
  await expect(twoLines.getByRole('button', { name: '👍 2, including you', exact: true })).toBeVisible({ timeout: 15_000 });
  await twoLines.getByRole('button', { name: '👍 2, including you', exact: true }).click();
  await expect(twoLines.getByRole('button', { name: '👍 1', exact: true })).toBeVisible();
  await expect(seenByMember.getByRole('button', { name: '👍 1, including you', exact: true })).toBeVisible({ timeout: 15_000 });
  // The Members filter shows the chosen members' messages only.
  const filter = page.getByRole('dialog', { name: 'Filter the chat' });
  await page.getByRole('button', { name: 'Filter the chat' }).click();
  await filter.getByRole('checkbox', { name: 'You' }).check();
  await expect(message(page, 'Welcome to the field season chat.')).toBeVisible();
  await expect(message(page, 'First line\nSecond line')).toHaveCount(0);
  await filter.getByRole('button', { name: 'Clear filters' }).click();
  await filter.getByRole('button', { name: 'Done' }).click();
  await expect(message(page, 'First line\nSecond line')).toBeVisible();
  await shootBothWidths(page, 'conversation');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'chat-conversation-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // Hostile text shows as typed and runs nothing.
  const hostile = ['<img src=x onerror=alert(1)>', '<script>window.__chatPwned = 1; alert(2)</script>'];
  for (const text of hostile) await send(page, text);
  for (const p of [page, member]) {
    for (const text of hostile) await expect(message(p, text)).toBeVisible({ timeout: 15_000 });
    await expect(p.getByRole('log', { name: 'Messages' }).locator('img, script')).toHaveCount(0);
    expect(await p.evaluate(() => (window as unknown as { __chatPwned?: number }).__chatPwned)).toBeUndefined();
  }
  expect(dialogs).toEqual([]);

  // Offline, a message shows at once as 'Sending…' and reaches the other member once back online.
  await page.context().setOffline(true);
  await send(page, 'Written in the valley, no signal.');
  await expect(message(page, 'Written in the valley, no signal.').getByText('Sending…')).toBeVisible();
  await page.context().setOffline(false);
  await expect(message(page, 'Written in the valley, no signal.').getByText('Sending…')).toHaveCount(0, { timeout: 30_000 });
  await expect(message(member, 'Written in the valley, no signal.')).toBeVisible({ timeout: 30_000 });

  // Made a VIEWER, the member reads the chat but cannot post or react, and is told why.
  await page.goto(assetsUrl);
  await room.openVaultMenu(vaultName, 'Manage access');
  await page.getByRole('combobox', { name: `Role of ${memberEmail}` }).selectOption('VIEWER');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Access updated.')).toBeVisible();
  await member.reload();
  await expect(member.getByText('Viewers can read the chat but cannot send messages or react.')).toBeVisible({ timeout: 30_000 });
  await expect(member.getByRole('textbox', { name: 'Message' })).toBeDisabled();
  await expect(message(member, 'Welcome to the field season chat.')).toBeVisible();
  await expect(member.getByRole('button', { name: 'Add a reaction' })).toHaveCount(0);
  await expect(message(member, 'First line\nSecond line').getByRole('button', { name: '👍 1, including you', exact: true })).toBeDisabled();
  await shootBothWidths(member, 'viewer');

  // A public vault has no chat: no Chat tab, and its .../chat goes to its assets.
  await room.createVault(`Open notes ${Date.now().toString(36)}`, { storage: 'Cloud storage', privacy: 'Public', tour: 'none' });
  const publicAssets = page.url();
  await expect(page.getByRole('tab', { name: 'Chat' })).toHaveCount(0);
  await page.goto(publicAssets.replace(/\/assets$/, '/chat'));
  await expect(page).toHaveURL(publicAssets);
  await other.close();
});
