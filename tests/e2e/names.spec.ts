/**
 * Names and the file list as a new user meets them (issue 26): the rename and create-folder
 * dialogs refuse a name the folder has and names a disk cannot save (SYNC_SPEC R73), rename
 * selects the name before its extension, the type follows the extension, the vault's menu is on
 * every tab, the viewer steps through the folder and has the file's actions, and on a phone the
 * name keeps its room.
 */
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom, type UploadFile } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

const text = (name: string, body: string): UploadFile => ({ name, mimeType: 'text/plain', buffer: Buffer.from(body) });
const LONG_NAME = 'Expedition budget and receipts for the northern field season.txt';

test('[R73] rename and create folder refuse a taken or unsavable name in the field; rename selects the name; the type follows the extension', async ({ page, shoot }, testInfo) => {
  test.setTimeout(180_000);
  const isPhone = testInfo.project.name === 'phone';
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'names'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault('Expedition names', { storage: 'Cloud storage', privacy: 'Private' });

  await room.pickFiles([text('notes.txt', 'Ferry at 08:10'), text('photo.png', 'not really a picture'), text(LONG_NAME, 'receipts')]);
  await room.confirmUpload();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 60_000 });
  await room.createFolder('Trips');

  // Create folder: a name the folder has, whatever its case, and a name with a slash.
  await page.getByRole('button', { name: 'Add an asset' }).click();
  await page.getByRole('menuitem', { name: 'Create folder' }).click();
  const folderDialog = page.getByRole('dialog', { name: 'Create folder' });
  const folderName = folderDialog.getByRole('textbox', { name: 'Folder name' });
  await folderName.fill('TRIPS');
  await expect(folderDialog.getByText('There is already an item named "Trips" in this folder.')).toBeVisible();
  await expect(folderDialog.getByRole('button', { name: 'Create' })).toBeDisabled();
  await folderName.fill('Trips/2024');
  await expect(folderDialog.getByText('A name cannot contain any of these characters: / \\ : * ? " < > |')).toBeVisible();
  await folderName.fill('..');
  await expect(folderDialog.getByText('A name cannot be only dots.')).toBeVisible();
  await expect(folderName).toHaveAttribute('aria-invalid', 'true');
  await folderDialog.getByRole('button', { name: 'Cancel' }).click();

  // Rename: the selection covers 'notes' of 'notes.txt', so typing keeps the extension.
  await room.rowAction('notes.txt', 'Rename');
  const renameDialog = page.getByRole('dialog', { name: 'Rename file' });
  const nameField = renameDialog.getByRole('textbox', { name: 'Name' });
  await expect(nameField).toBeFocused();
  expect(await nameField.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd])).toEqual([0, 'notes'.length]);
  await page.keyboard.type('Photo');
  await expect(nameField).toHaveValue('Photo.txt');
  await nameField.fill('PHOTO.png');
  await expect(renameDialog.getByText('There is already an item named "photo.png" in this folder.')).toBeVisible();
  await expect(renameDialog.getByRole('button', { name: 'Rename' })).toBeDisabled();
  await nameField.fill('con.txt');
  await expect(renameDialog.getByText('"con.txt" is a name Windows keeps for devices. Choose another name.')).toBeVisible();
  await nameField.fill('minutes.txt');
  await renameDialog.getByRole('button', { name: 'Rename' }).click();
  await expect(renameDialog).toBeHidden();
  await expect(room.row('minutes.txt')).toBeVisible();
  await expect(room.row('photo.png')).toHaveCount(1);
  if (!isPhone) await expect(room.row('minutes.txt').getByRole('cell', { name: 'TXT', exact: true })).toBeVisible();
  await room.rowAction('minutes.txt', 'Info');
  const info = page.getByRole('dialog', { name: 'File info' });
  await expect(info.getByText('TXT', { exact: true })).toBeVisible();
  await expect(info.getByText('text/plain')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(info).toBeHidden();

  // At 375 px the name keeps the room: the size column gives way.
  const nameCell = room.row(LONG_NAME).getByRole('cell').nth(1);
  const width = (await nameCell.boundingBox())!.width;
  expect(width, 'the name cell is wide enough to read').toBeGreaterThan(isPhone ? 200 : 400);
  await shoot('names-file-list', { fullPage: false });

  // A text file named '.png' is tried as an image and says it is not one, instead of a broken picture.
  await room.row('photo.png').getByRole('link', { name: 'photo.png' }).click();
  await expect(page.getByRole('region', { name: 'Preview' }).getByText('No preview: the content of this file is not an image.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Preview' }).getByRole('img')).toHaveCount(0);
});

test('the vault menu is on every tab; the viewer steps through the folder and has the file actions', async ({ page, shoot }, testInfo) => {
  test.setTimeout(180_000);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'viewer-names'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault('Expedition steps', { storage: 'Cloud storage', privacy: 'Private' });
  await room.pickFiles([text('a-first.txt', 'one'), text('b-second.txt', 'two'), text('c-third.txt', 'three')]);
  await room.confirmUpload();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 60_000 });

  for (const tab of ['Chat', 'Timeline']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page).toHaveURL(new RegExp(`/${tab.toLowerCase()}$`));
    await page.getByRole('button', { name: 'Actions for Expedition steps' }).click();
    await expect(page.getByRole('menuitem', { name: 'Vault info' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeVisible();
    await page.keyboard.press('Escape');
  }
  await page.getByRole('tab', { name: 'Files' }).click();

  await room.row('b-second.txt').getByRole('link', { name: 'b-second.txt' }).click();
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('b-second.txt');
  await expect(page.getByRole('region', { name: 'Preview' }).getByText('two')).toBeVisible();
  await page.getByRole('button', { name: 'Next file' }).click();
  await expect(heading).toHaveText('c-third.txt');
  await expect(page.getByRole('button', { name: 'Next file' })).toBeDisabled();
  await expect(page.getByRole('region', { name: 'Preview' }).getByText('three')).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(heading).toHaveText('b-second.txt');
  await page.keyboard.press('ArrowLeft');
  await expect(heading).toHaveText('a-first.txt');
  await expect(page.getByRole('button', { name: 'Previous file' })).toBeDisabled();
  await page.keyboard.press('ArrowRight');
  await expect(heading).toHaveText('b-second.txt');
  await shoot('names-viewer');

  // The file's actions, as in its row: rename (with the R73 check) from the viewer.
  await page.getByRole('button', { name: 'Actions for b-second.txt' }).click();
  for (const action of ['Download', 'Rename', 'Move', 'Hide', 'Info']) await expect(page.getByRole('menuitem', { name: action, exact: true })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Rename', exact: true }).click();
  const renameDialog = page.getByRole('dialog', { name: 'Rename file' });
  await renameDialog.getByRole('textbox', { name: 'Name' }).fill('C-THIRD.txt');
  await expect(renameDialog.getByText('There is already an item named "c-third.txt" in this folder.')).toBeVisible();
  await renameDialog.getByRole('textbox', { name: 'Name' }).fill('b-renamed.txt');
  await renameDialog.getByRole('button', { name: 'Rename' }).click();
  await expect(heading).toHaveText('b-renamed.txt');
  await expect(renameDialog).toBeHidden();
  await page.getByRole('link', { name: 'Back to the folder' }).click();
  await expect(room.row('b-renamed.txt')).toBeVisible();
});
