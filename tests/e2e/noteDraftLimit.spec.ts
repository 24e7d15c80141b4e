import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DRAFT_LIMIT_MESSAGE, DRAFT_LIMITS } from '../../src/protocol/vaults';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

/** The server's count of drafts of `noteId` (any base), read from its SQLite file. */
function draftCount(noteId: string): number {
  const db = new Database(join(DATA_DIR, 'cairn.sqlite'));
  try {
    const row = db.prepare('select coalesce(sum(count), 0) as n from note_drafts where note_id = ?').get(noteId) as { n: number };
    return Number(row.n);
  } finally {
    db.close();
  }
}

/** As if the note had been edited in a thousand bursts already: its base is at the draft limit. */
function fillDraftLimit(noteId: string): void {
  const db = new Database(join(DATA_DIR, 'cairn.sqlite'));
  try {
    db.prepare('update note_drafts set count = ? where note_id = ?').run(DRAFT_LIMITS.OPS_PER_BASE, noteId);
  } finally {
    db.close();
  }
}

// SYNC_SPEC R63: past the draft limit the editor says to save, keeps the text (across a reload
// too), and saving it as a new version works and clears the message.
test('notes: at the draft limit the editor says to save and keeps the text', async ({ page, shoot }, testInfo) => {
  test.setTimeout(180_000);
  const mark = `L${Date.now().toString(36)}${testInfo.project.name}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'draftlimit'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Limit ${mark}`, { storage: 'Cloud storage', privacy: 'Private' });
  const saved = 'Route: north ridge.';
  await room.pickFiles([{ name: 'Route.md', mimeType: 'text/markdown', buffer: Buffer.from(saved) }]);
  await room.confirmUpload();
  await expect(room.row('Route.md')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 30_000 });

  await room.rowAction('Route.md', 'Edit note');
  await expect(page).toHaveURL(/\/assets\/note\/[\w-]+$/);
  const noteId = new URL(page.url()).pathname.split('/').at(-1)!;
  const text = page.getByRole('textbox', { name: 'Text' });
  await expect(text).toHaveValue(saved, { timeout: 30_000 });
  await text.press('Control+End');
  await text.pressSequentially(' Camp at the lake.');
  // The first draft reached the server; then the base is at the limit.
  await expect.poll(() => draftCount(noteId), { timeout: 20_000 }).toBe(1);
  fillDraftLimit(noteId);

  await text.pressSequentially(' Cross at dawn.');
  const refusal = page.getByRole('alert').filter({ hasText: DRAFT_LIMIT_MESSAGE });
  await expect(refusal).toBeVisible({ timeout: 20_000 });
  const typed = `${saved} Camp at the lake. Cross at dawn.`;
  await expect(text).toHaveValue(typed);
  await shoot('note-draft-limit');

  // The text stays on the device, and so does the message, across a reload.
  await page.reload();
  await expect(text).toHaveValue(typed, { timeout: 30_000 });
  await expect(refusal).toBeVisible({ timeout: 20_000 });

  // Saving is the way on: a new version with the whole text, and the message is gone.
  await page.getByRole('button', { name: 'Save new version' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save new version' }).click();
  await expect(page).toHaveURL(/\/stack\/[\w-]+$/);
  await expect(page.getByTestId('markdown-preview').getByText(typed)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(DRAFT_LIMIT_MESSAGE)).toHaveCount(0);
});
