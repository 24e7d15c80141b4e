import { deflateSync } from 'node:zlib';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom, type UploadFile } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real (gradient) PNG, so the test can check the browser decoded it. */
function gradientPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows.set([(x * 255) / width, (y * 255) / height, 160], y * (width * 3 + 1) + 1 + x * 3);
  }
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]);
}

const HOSTILE_NOTE = [
  '# Expedition heading',
  '',
  'A [safe link](https://example.com/map) and an [evil link](javascript:alert(3)).',
  '',
  '<script>alert(1)</script>',
  '',
  '<img src="x" onerror="alert(2)">',
  '',
  '![tracker](https://example.com/pixel.png)',
].join('\n');

test('the stack viewer shows images, inert notes and text, and older versions', async ({ page, shoot }, testInfo) => {
  test.setTimeout(180_000);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const mark = `V${Date.now().toString(36)}${testInfo.project.name}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'viewer'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(`Viewer ${mark}`, { storage: 'Cloud storage', privacy: 'Private' });

  const image: UploadFile = { name: `photo-${mark}.png`, mimeType: 'image/png', buffer: gradientPng(320, 200) };
  const note: UploadFile = { name: `note-${mark}.md`, mimeType: 'text/markdown', buffer: Buffer.from(HOSTILE_NOTE) };
  const text: UploadFile = { name: `diary-${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} first version`) };
  await room.pickFiles([image, note, text]);
  await room.confirmUpload();
  for (const file of [image, note, text]) await expect(room.row(file.name)).toBeVisible({ timeout: 60_000 });

  // The image: decrypted into an object URL and decoded by the browser.
  await room.row(image.name).getByRole('link', { name: image.name }).click();
  await expect(page.getByRole('heading', { name: image.name })).toBeVisible();
  const picture = page.getByRole('img', { name: image.name });
  await expect(picture).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  expect(await picture.getAttribute('src')).toMatch(/^blob:/);
  await shoot('viewer-image');
  await page.getByRole('link', { name: 'Back to the folder' }).click();

  // The hostile note: rendered, but no script, no handler, no javascript: link, no remote image.
  await room.row(note.name).getByRole('link', { name: note.name }).click();
  const preview = page.getByTestId('markdown-preview');
  await expect(preview.getByRole('heading', { name: 'Expedition heading' })).toBeVisible({ timeout: 30_000 });
  await expect(preview.getByRole('link', { name: 'safe link' })).toHaveAttribute('href', 'https://example.com/map');
  await expect(preview.getByText('evil link')).toBeVisible();
  await expect(page.locator('a[href^="javascript:" i]')).toHaveCount(0);
  await expect(preview.getByRole('link', { name: 'evil link' })).toHaveCount(0);
  await expect(page.locator('script').filter({ hasText: 'alert' })).toHaveCount(0);
  await expect(preview.locator('script, img, [onerror]')).toHaveCount(0);
  await shoot('viewer-note');
  await page.keyboard.press('Escape');
  await expect(room.row(text.name)).toBeVisible();

  // A second version through the duplicate 'Replace' flow.
  const second: UploadFile = { ...text, buffer: Buffer.from(`${mark} second version`) };
  await room.pickFiles([second]);
  // One step: the upload dialog asks about the duplicate too (issue 26).
  const duplicates = page.getByRole('dialog', { name: 'Upload 1 file' }).getByRole('region', { name: 'This file already exists' });
  await duplicates.getByText('Replace', { exact: true }).click();
  await room.confirmUpload();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 30_000 });

  await room.row(text.name).getByRole('link', { name: text.name }).click();
  const versions = page.getByRole('navigation', { name: 'Versions' });
  await expect(versions.getByRole('button', { name: /Version 2/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('text-preview')).toHaveText(`${mark} second version`, { timeout: 30_000 });
  await expect(page).not.toHaveURL(/resourceVersion=/);

  // Selecting the older version: it moves to the top, the URL names it, its text shows.
  await versions.getByRole('button', { name: /Version 1/ }).click();
  await expect(page).toHaveURL(/\?resourceVersion=[\w-]+$/);
  await expect(page.getByTestId('text-preview')).toHaveText(`${mark} first version`, { timeout: 30_000 });
  await expect(versions.getByRole('button').first()).toContainText('Version 1');
  await shoot('viewer-old-version');

  // Back to the latest: no parameter.
  await versions.getByRole('button', { name: /Version 2/ }).click();
  await expect(page).not.toHaveURL(/resourceVersion=/);
  await expect(page.getByTestId('text-preview')).toHaveText(`${mark} second version`);

  expect(dialogs).toEqual([]);
});
