/**
 * `cairn ls [VAULT[/folder]]` and `cairn download VAULT/path/to/file --out FILE|DIR`, read from
 * the device's pulled vaults (src/storage) and downloaded with the app's own checked download:
 * every chunk verified against the hash its uploader signed before a byte of it is written.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '../src/domain/formatting';
import { getChildren, getVaults } from '../src/storage/vaultStore';
import { DownloadError, openFileVersionDownload } from '../src/sync/downloadFile';
import { CliError } from './CliError';
import type { CliDevice } from './device';
import { fileSink } from './fileSink';
import { ProgressLine } from './progress';
import { resolveNode, resolveVault } from './vaultPaths';

const row = (cells: (string | number)[]) => `${cells.join('\t')}\n`;

/** Vaults: name, id, private/public, cloud/permanent; a folder: name, size in bytes, kind (tab-separated, for scripts). */
export async function runLs(device: CliDevice, target: string | undefined, out: NodeJS.WritableStream): Promise<void> {
  const { db, account } = device;
  if (!target) {
    for (const vault of await getVaults(db, account.id, 'active')) {
      out.write(row([vault.name, vault.vaultId, vault.isPublic ? 'public' : 'private', vault.isCloud ? 'cloud' : 'permanent']));
    }
    return;
  }
  const found = await resolveVault(db, account.id, target);
  const node = await resolveNode(db, account.id, found);
  if (node && node.kind === 'file') {
    out.write(row([node.name, node.size, 'file']));
    return;
  }
  for (const child of await getChildren(db, account.id, found.vault.vaultId, node?.id ?? null)) {
    out.write(row([child.name, child.kind === 'folder' ? '-' : child.size, child.kind]));
  }
}

export async function runDownload(device: CliDevice, target: string, outPath: string, stderr: NodeJS.WritableStream, say: (line: string) => void): Promise<void> {
  const { db, account, ctx } = device;
  const found = await resolveVault(db, account.id, target);
  const node = await resolveNode(db, account.id, found);
  if (!node || node.kind !== 'file') throw new CliError('BAD_INPUT', `"${target}" is not a file (cairn ls ${found.vault.name}/... lists a folder).`);
  let destination = path.resolve(outPath);
  const stat = await fsp.stat(destination).catch(() => null);
  if (stat?.isDirectory()) destination = path.join(destination, node.name);
  let download;
  try {
    download = await openFileVersionDownload(ctx, found.vault.vaultId, node.id);
  } catch (error) {
    throw error instanceof DownloadError ? new CliError('BAD_INPUT', error.message) : error;
  }
  const sink = fileSink(destination);
  const progress = new ProgressLine(stderr, `Downloading ${node.name}`);
  let received = 0;
  try {
    await download.pump(
      async (chunk) => {
        await sink.write(chunk);
        received += chunk.byteLength;
        progress.update(received, download.size);
      },
    );
    await sink.finish();
  } catch (error) {
    progress.end();
    await sink.discard();
    if (error instanceof DownloadError) throw new CliError(error.code === 'CHUNK_TAMPERED' ? 'TAMPERED' : error.code === 'OFFLINE' ? 'UNREACHABLE' : 'UNEXPECTED', error.message);
    throw error;
  }
  progress.end();
  say(`Downloaded ${node.name} (${formatBytes(download.size)}) to ${destination}`);
}
