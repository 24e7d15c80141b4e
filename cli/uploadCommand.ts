/**
 * `cairn upload PATH... --vault VAULT [--to folder/path]`: the app's own upload (uploadFiles: its
 * folder handling, chunk sealing and signed file operations), run until every file is stored and
 * its operation accepted, with progress on standard error. Interrupted (Ctrl-C, a lost network,
 * the process killed), it leaves a state file (uploadState.ts) that the same command run again
 * resumes from.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '../src/domain/formatting';
import type { UploadRecord } from '../src/storage/vaultRecords';
import { rememberPickedFile } from '../src/sync/uploadSource';
import { uploadFiles } from '../src/sync/vaultActions';
import { CliError } from './CliError';
import { toCliError, type CliDevice } from './device';
import { collectLocalFiles, openLocalFile, toUploadItems } from './localFiles';
import { ProgressLine } from './progress';
import { captureUploadState, readUploadState, restoreUploadState, uploadStateFile, writeUploadState, type UploadStateFile } from './uploadState';
import { resolveVault, splitPath } from './vaultPaths';

/** With no progress for this long (the server unreachable, say), the command stops; run again, it resumes. */
export const DEFAULT_STALL_MS = 120_000;
const TICK_MS = 200;
/** How often a finished upload whose operation waits is pushed again (each push is a request counted against the key). */
const PUSH_EVERY_MS = 2_000;

export interface UploadOptions {
  paths: string[];
  vault: string;
  to: string | undefined;
  configDir: string;
  server: string;
  stallMs: number;
  signal: AbortSignal | undefined;
  progress: ProgressLine;
  say: (line: string) => void;
}

export async function runUpload(device: CliDevice, options: UploadOptions): Promise<void> {
  const { db, ctx, account } = device;
  const found = await resolveVault(db, account.id, options.vault);
  if (found.segments.length) throw new CliError('BAD_INPUT', 'Give the vault alone to --vault, and the folder to --to.');
  const vault = found.vault;
  if (vault.role === 'VIEWER') throw new CliError('NOT_MEMBER', `You are a viewer of the vault "${vault.name}": a viewer cannot upload.`);
  const to = splitPath(options.to ?? '');
  // The app leaves out everything under a dot folder; a --to of one would upload nothing.
  if (to.some((segment) => segment.startsWith('.'))) throw new CliError('BAD_INPUT', `--to ${options.to}: folder names starting with "." are left out of uploads, as in the app.`);
  const { files, emptyFolders } = await collectLocalFiles(options.paths);
  const stateFile = uploadStateFile(options.configDir, { server: options.server, accountId: account.id, vaultId: vault.vaultId, to, paths: options.paths.map((p) => path.resolve(p)) });

  const sources = new Map<string, string>();
  const saved = await readUploadState(stateFile);
  if (saved && saved.uploads.every((u) => u.accountId === account.id && u.vaultId === vault.vaultId)) {
    await restoreUploadState(db, saved);
    for (const record of saved.uploads) {
      const source = saved.sources[record.uploadId];
      if (!source) continue;
      sources.set(record.uploadId, source);
      // A file gone since leaves the upload without a source: the queue fails it naming the file.
      const file = await openLocalFile(source, record.name).catch(() => null);
      if (file) rememberPickedFile(record.uploadId, file);
    }
    options.say(`Resuming the upload of ${saved.uploads.length} file(s) into "${vault.name}"`);
  } else {
    if (!files.length && !emptyFolders.length) throw new CliError('BAD_INPUT', 'Nothing to upload (dot files such as .DS_Store are left out).');
    const items = await toUploadItems(files, to);
    const folders = emptyFolders.map((f) => [...to, ...f]);
    if (to.length && !files.length) folders.push(to);
    const { batchId } = await uploadFiles(vault.vaultId, null, items, folders);
    const records = await db.uploads.where('accountId').equals(account.id).filter((r) => r.batchId === batchId).sortBy('createdAt');
    // uploadFiles queues one record per item, in order (dot entries were left out before).
    records.forEach((record, i) => sources.set(record.uploadId, files[i]!.source));
    options.say(`Uploading ${records.length} file(s) (${formatBytes(records.reduce((sum, r) => sum + r.size, 0))}) into "${vault.name}"`);
  }
  let lastSaved = '';
  const save = async () => {
    const state: UploadStateFile = await captureUploadState(db, account.id, vault.vaultId, sources);
    const text = JSON.stringify(state);
    if (text === lastSaved) return;
    lastSaved = text;
    await writeUploadState(stateFile, state);
  };
  await save();
  ctx.requestUploads();
  ctx.requestPush();

  let lastChange = Date.now();
  let lastMark = '';
  let lastPush = Date.now();
  const reported = new Set<string>();
  for (;;) {
    if (options.signal?.aborted) {
      options.progress.end();
      await settle(device);
      await save();
      throw new CliError('INTERRUPTED', 'Interrupted: run the same command again to go on from where it stopped.');
    }
    const records = (await db.uploads.bulkGet([...sources.keys()].map((id) => [account.id, id] as [string, string]))).filter((r): r is UploadRecord => r !== undefined);
    const outbox = await db.outbox.where('[accountId+vaultId]').equals([account.id, vault.vaultId]).toArray();
    const sent = records.reduce((sum, r) => sum + (r.state === 'done' ? r.size : r.sentBytes), 0);
    const total = records.reduce((sum, r) => sum + r.size, 0);
    options.progress.update(sent, total);
    for (const record of records) {
      if (record.state === 'done' && !reported.has(record.uploadId)) {
        reported.add(record.uploadId);
        options.progress.note(`Stored ${record.name} (${formatBytes(record.size)})`);
      }
    }
    const failed = records.find((r) => r.state === 'failed' || r.state === 'cancelled');
    const rejected = outbox.find((o) => o.status === 'rejected');
    if (failed || rejected) {
      options.progress.end();
      await fsp.rm(stateFile, { force: true });
      throw new CliError('UPLOAD_FAILED', failed ? `${failed.name}: ${failed.error ?? 'the upload failed'}` : `The server refused an operation: ${rejected!.error?.message ?? rejected!.error?.code ?? 'rejected'}`);
    }
    const allDone = records.every((r) => r.state === 'done');
    if (allDone && outbox.length === 0) break;
    // Progress is bytes stored, files finished or operations accepted; an upload paused and
    // retried again and again (the network gone) changes states but makes none.
    const mark = JSON.stringify([sent, records.filter((r) => r.state === 'done').length, outbox.length]);
    await save();
    if (mark !== lastMark) {
      lastMark = mark;
      lastChange = Date.now();
    } else if (Date.now() - lastChange > options.stallMs) {
      options.progress.end();
      await save();
      const problem = device.lastProblem();
      const resume = 'Run the same command again to go on from where it stopped.';
      // A refused key or a used-up period is the key's problem, not the network's: say so with its own code.
      const known = toCliError(problem, options.server);
      if (known instanceof CliError && (known.code === 'KEY_REFUSED' || known.code === 'RATE_LIMITED')) throw new CliError(known.code, `${known.message} ${resume}`);
      const reason = problem instanceof Error ? `: ${problem.message}` : '';
      throw new CliError('UNREACHABLE', `No progress for ${Math.round(options.stallMs / 1000)} s${reason}. ${resume}`);
    }
    if (allDone && Date.now() - lastPush > PUSH_EVERY_MS) {
      lastPush = Date.now();
      device.client.requestRun();
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  options.progress.end();
  await fsp.rm(stateFile, { force: true });
  await device.client.syncNow();
  options.say(`Uploaded ${sources.size} file(s) into "${vault.name}"${to.length ? `/${to.join('/')}` : ''}`);
}

/** Lets what is in flight fail (its requests now refused) so the records show where it stopped. */
async function settle(device: CliDevice): Promise<void> {
  await Promise.race([device.client.idle(), new Promise((resolve) => setTimeout(resolve, 2_000))]);
}
