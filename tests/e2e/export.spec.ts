import { configure, Uint8ArrayReader, Uint8ArrayWriter, ZipReader } from '@zip.js/zip.js';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom, type UploadFile } from './pages/VaultRoom';
import { verifyOperation } from '../../src/crypto/operations';
import { CHUNK_SIZE, CHUNK_TAG_BYTES, Operation } from '../../src/protocol/vaults';
import { DATA_DIR, STRONG_PASSWORD, expect, tamperChunk, test, uniqueEmail } from './fixtures';

// Issue 19, SYNC_SPEC R87 and R88: a member takes the whole vault away, decrypted or still sealed.

configure({ useWebWorkers: false });

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Every entry of a zip: path -> bytes. */
async function unzip(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const reader = new ZipReader(new Uint8ArrayReader(bytes));
  const out = new Map<string, Uint8Array>();
  for (const entry of await reader.getEntries()) {
    if (entry.directory || !entry.getData) continue;
    out.set(entry.filename, await entry.getData(new Uint8ArrayWriter()));
  }
  await reader.close();
  return out;
}

const json = (bytes: Uint8Array | undefined) => JSON.parse(Buffer.from(bytes!).toString('utf8')) as Record<string, unknown>;

/**
 * A save picker where the browser's own would be: the zip goes to a file of the origin's private
 * file system (OPFS), which the test reads back. Writes through createWritable land only on close,
 * as with a file the user picks.
 */
async function useSavePicker(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async (options: { suggestedName: string }) => {
      const root = await navigator.storage.getDirectory();
      return root.getFileHandle(options.suggestedName, { create: true });
    };
  });
}

/** The picked file's size (null when there is none). */
function pickedSize(page: Page, name: string): Promise<number | null> {
  return page.evaluate(async (fileName) => {
    const root = await navigator.storage.getDirectory();
    const handle = await root.getFileHandle(fileName).catch(() => null);
    return handle ? (await handle.getFile()).size : null;
  }, name);
}

/** The picked file's bytes, read in slices (null when there is none). */
async function readPicked(page: Page, name: string): Promise<Buffer | null> {
  const size = await pickedSize(page, name);
  if (size === null) return null;
  const parts: Buffer[] = [];
  const SLICE = 4 * 1024 * 1024;
  for (let start = 0; start < size; start += SLICE) {
    const base64 = await page.evaluate(
      async ({ fileName, from, to }) => {
        const file = await (await (await navigator.storage.getDirectory()).getFileHandle(fileName)).getFile();
        const bytes = new Uint8Array(await file.slice(from, to).arrayBuffer());
        let text = '';
        for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(text);
      },
      { fileName: name, from: start, to: Math.min(size, start + SLICE) },
    );
    parts.push(Buffer.from(base64, 'base64'));
  }
  return Buffer.concat(parts);
}

async function sendMessage(page: Page, text: string): Promise<void> {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
  await expect(page.getByRole('log', { name: 'Messages' }).getByText(text, { exact: true })).toBeVisible();
}

async function createNote(page: Page, title: string, text: string): Promise<void> {
  await page.getByRole('button', { name: 'Add an asset' }).click();
  await page.getByRole('menuitem', { name: 'Create note' }).click();
  await page.getByRole('textbox', { name: 'Text' }).fill(text);
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('button', { name: 'Save note' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save note' }).click();
  await expect(page).toHaveURL(/\/assets$/);
}

function randomFile(name: string, chunks: number): UploadFile {
  return { name, mimeType: 'application/octet-stream', buffer: randomBytes((chunks - 1) * CHUNK_SIZE + 123_457) };
}

test('[R87][R88] Export vault and Export encrypted take the whole vault away, byte for byte', async ({ page, shoot }, testInfo) => {
  test.setTimeout(300_000);
  const mark = `EX${Date.now().toString(36)}`;
  const vaultName = `Expedition ${mark}`;
  await useSavePicker(page);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'export'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });

  const noteTitle = `Plan ${mark}`;
  const noteText = `# Plan ${mark}\n\n- rope\n- stove`;
  await createNote(page, noteTitle, noteText);
  const readme = { name: `readme ${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} read me first`) };
  await room.pickFiles([readme]);
  await room.confirmUpload();
  // The box's line of each file of the batch says so at every width (at 375 px its progress bar is not on screen).
  await expect(room.uploadRow(readme.name)).toContainText('Uploaded', { timeout: 90_000 });
  await room.createFolder('Maps');
  await room.openFolder('Maps');
  await room.createFolder('North');
  const big = randomFile(`survey-${mark}.bin`, 3);
  const small = { name: `bearings-${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} bearings 12°`) };
  await room.pickFiles([big, small]);
  await room.confirmUpload();
  await expect(room.row(big.name)).toBeVisible();
  for (const file of [big, small]) await expect(room.uploadRow(file.name)).toContainText('Uploaded', { timeout: 90_000 });
  await room.openFolder('North');
  const deep = { name: `camp-${mark}.csv`, mimeType: 'text/csv', buffer: Buffer.from(`lat,lon\n46.1,7.2\n`) };
  await room.pickFiles([deep]);
  await room.confirmUpload();
  await expect(room.uploadRow(deep.name)).toContainText('Uploaded', { timeout: 90_000 });

  await page.getByRole('tab', { name: 'Chat' }).click();
  await sendMessage(page, `First light at the col ${mark}`);
  await sendMessage(page, `Second rope team ready ${mark}`);
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 60_000 });

  // The zip streams to disk through the service worker where no save picker is (Firefox, Safari).
  await room.reloadUnderServiceWorker();
  await page.evaluate(() => void ((window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = undefined));
  await page.getByRole('button', { name: `Actions for ${vaultName}` }).click();
  await shoot('export-menu', { fullPage: false });
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Export vault', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${vaultName}.zip`);
  expect(await download.failure()).toBeNull();
  const plain = await unzip(readFileSync((await download.path())!));
  expect([...plain.keys()].sort()).toEqual(
    [`${noteTitle}.md`, readme.name, `Maps/${big.name}`, `Maps/${small.name}`, `Maps/North/${deep.name}`, '.cairn/chat.json', '.cairn/timeline.json'].sort(),
  );
  expect(Buffer.from(plain.get(`${noteTitle}.md`)!).toString('utf8')).toBe(noteText);
  for (const [path, file] of [
    [readme.name, readme],
    [`Maps/${big.name}`, big],
    [`Maps/${small.name}`, small],
    [`Maps/North/${deep.name}`, deep],
  ] as const) {
    expect(sha256(plain.get(path)!), path).toBe(sha256(file.buffer));
  }
  const chat = json(plain.get('.cairn/chat.json')) as { format: string; version: number; memos: { message: string; author: string; createdAt: number; reactions: object }[] };
  expect(chat.format).toBe('cairn-chat');
  expect(chat.version).toBe(1);
  expect(chat.memos.map((m) => m.message)).toEqual([`First light at the col ${mark}`, `Second rope team ready ${mark}`]);
  expect(chat.memos[0]!.author).toMatch(/^[0-9a-f]{64}$/);
  const timeline = json(plain.get('.cairn/timeline.json')) as { format: string; items: { seq: number; name: string | null; message: string | null }[] };
  expect(timeline.format).toBe('cairn-timeline');
  const seqs = timeline.items.map((i) => i.seq);
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  expect(timeline.items.some((i) => i.name === big.name)).toBe(true);
  expect(timeline.items.some((i) => i.message === `Second rope team ready ${mark}`)).toBe(true);

  // Encrypted, to the file the user picks: the signed history and the sealed chunks, nothing opened.
  await page.reload();
  await room.openVaultMenu(vaultName, 'Export encrypted');
  // The picked file holds bytes only once the zip is complete and closed.
  await expect.poll(async () => (await pickedSize(page, `${vaultName} (encrypted).zip`)) ?? 0, { timeout: 60_000 }).toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: 'Cancel download' })).toBeHidden();
  const sealedZip = await readPicked(page, `${vaultName} (encrypted).zip`);
  const sealed = await unzip(sealedZip!);
  const vaultId = new URL(page.url()).pathname.split('/')[3]!;
  const manifest = json(sealed.get('cairn-export.json'));
  expect(manifest).toMatchObject({ format: 'cairn-vault-export', version: 1, vaultId });
  const historyNames = [...sealed.keys()].filter((k) => k.startsWith('history/'));
  expect(historyNames).toEqual(['history/0000000001.json']);
  const run = json(sealed.get(historyNames[0]!)) as { format: string; vaultId: string; seqFrom: number; seqTo: number; ops: { seq: number; receivedAt: number; op: unknown }[] };
  expect(run).toMatchObject({ format: 'cairn-vault-history', version: 1, vaultId, seqFrom: 1, seqTo: manifest.headSeq });
  expect(run.ops.map((o) => o.seq)).toEqual(Array.from({ length: run.seqTo }, (_, i) => i + 1));
  const versions = new Map<string, { storedSize: number; chunkSize: number; chunkHashes: string[] }>();
  for (const { op } of run.ops) {
    const parsed = Operation.parse(op);
    expect(parsed.objectId === vaultId || parsed.body.type !== 'vault.create').toBe(true);
    expect(await verifyOperation(parsed), `signature of ${parsed.body.type}`).toBe(true);
    if (parsed.body.type === 'file.create' || parsed.body.type === 'file.addVersion') versions.set(parsed.body.version.blobId, parsed.body.version);
  }
  expect(versions.size).toBe(5);
  const blobNames = [...sealed.keys()].filter((k) => k.startsWith('blobs/'));
  expect(blobNames.sort()).toEqual([...versions.keys()].map((id) => `blobs/${id}`).sort());
  for (const [blobId, version] of versions) {
    const stored = sealed.get(`blobs/${blobId}`)!;
    expect(stored.byteLength).toBe(version.storedSize);
    const step = version.chunkSize + CHUNK_TAG_BYTES;
    const hashes = [];
    for (let at = 0; at < stored.byteLength; at += step) hashes.push(sha256(stored.subarray(at, at + step)));
    expect(hashes, `chunks of ${blobId}`).toEqual(version.chunkHashes);
  }
  // Nothing in the sealed export is in clear: not a file's bytes, not a message.
  expect(Buffer.from(sealedZip!).includes(big.buffer.subarray(0, 4096))).toBe(false);
  expect(Buffer.from(sealedZip!).includes(Buffer.from(`Second rope team ready ${mark}`))).toBe(false);
  expect(Buffer.from(sealedZip!).includes(Buffer.from(noteTitle))).toBe(false);
});

test('[R87][R88] an export stops on a failed or tampered chunk naming the file, and a cancelled one leaves no finished file', async ({ page, shoot }, testInfo) => {
  test.setTimeout(240_000);
  const mark = `EC${Date.now().toString(36)}`;
  const vaultName = `Cancel ${mark}`;
  await useSavePicker(page);
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'export-cancel'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  const big = randomFile(`moraine-${mark}.bin`, 2);
  await room.pickFiles([big]);
  await room.confirmUpload();
  // The box says so at every width (at 375 px its progress bar is not on screen).
  await expect(room.uploadRow(big.name)).toContainText('Uploaded', { timeout: 90_000 });
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 60_000 });
  const zipName = `${vaultName} (encrypted).zip`;

  // The network fails one chunk: the export stops and says which file.
  await page.context().route('**/api/vaults/*/blobs/*/chunks/1', (route) =>
    route.request().method() === 'GET' ? route.fulfill({ status: 502, body: 'bad gateway' }) : route.continue(),
  );
  await room.openVaultMenu(vaultName, 'Export vault');
  await expect(page.getByText(`The export stopped: "${big.name}" could not be downloaded.`, { exact: false })).toBeVisible({ timeout: 30_000 });
  await shoot('export-failed', { fullPage: false });
  await page.context().unrouteAll({ behavior: 'ignoreErrors' });
  // The message closes by itself (Mantine pauses it while the pointer rests on it).
  await page.mouse.move(0, 0);
  await expect(page.getByText('The export stopped:', { exact: false })).toBeHidden({ timeout: 30_000 });

  // Cancel while chunks come slowly: the notice shows the progress; nothing that looks finished stays.
  await page.context().route('**/api/vaults/*/blobs/*/chunks/*', async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    await route.continue().catch(() => undefined);
  });
  await room.openVaultMenu(vaultName, 'Export encrypted');
  await expect(page.getByText(/of 3 files/)).toBeVisible();
  await shoot('export-progress', { fullPage: false });
  await page.getByRole('button', { name: 'Cancel download' }).click();
  await expect(page.getByText('Download cancelled.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel download' })).toBeHidden();
  const left = await readPicked(page, zipName);
  expect(left === null || left.byteLength === 0, 'no zip bytes left behind').toBe(true);
  await page.context().unrouteAll({ behavior: 'ignoreErrors' });

  // A chunk changed on the server: the sealed export refuses it, naming the file.
  tamperChunk(await room.blobIdOf(big.name), 1);
  await room.openVaultMenu(vaultName, 'Export encrypted');
  await expect(page.getByText(`The export stopped: the content of "${big.name}" does not match what its uploader signed`, { exact: false })).toBeVisible({ timeout: 30_000 });
  const tampered = await readPicked(page, zipName);
  expect(tampered === null || tampered.byteLength === 0, 'no zip bytes left behind').toBe(true);
});
