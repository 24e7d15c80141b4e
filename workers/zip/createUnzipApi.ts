/**
 * Unpacking with zip.js: the ZipReader reads the archive's central directory and then each entry
 * by slices of the picked File (a BlobReader), inflates it through a stream (the platform's
 * DecompressionStream, zip.js's own inflater where there is none) and checks its CRC-32; the
 * BlobWriter hands the stream to `Response.blob()`, which lets the browser keep a large entry on
 * disk rather than in the worker's heap.
 */
import {
  BlobReader,
  BlobWriter,
  configure,
  ERR_ENCRYPTED,
  ERR_INVALID_PASSWORD,
  ERR_UNSUPPORTED_COMPRESSION,
  ERR_UNSUPPORTED_ENCRYPTION,
  type Entry,
  ZipReader,
} from '@zip.js/zip.js/lib/zip-core-native.js';
import { emptyFolderPaths, planZipEntry, UNPACK_FAILURE, type UnpackFailureReason } from '../../src/domain/zipUnpackRules';
import type { UnpackFailure, UnpackedFile, UnpackResult, UnzipApi } from './UnzipApi';

// zip.js would start its own workers from blob: URLs, which the CSP (worker-src 'self') forbids;
// this is already a worker.
configure({ useWebWorkers: false });

function failureReason(entry: Entry, error: unknown): UnpackFailureReason {
  if (entry.encrypted) return 'encrypted';
  const message = error instanceof Error ? error.message : '';
  if (message === ERR_ENCRYPTED || message === ERR_INVALID_PASSWORD || message === ERR_UNSUPPORTED_ENCRYPTION) return 'encrypted';
  if (message === ERR_UNSUPPORTED_COMPRESSION) return 'unsupported';
  return 'damaged';
}

export function createUnzipApi(): UnzipApi {
  return {
    async unpack(zip, onProgress) {
      // Names are checked per entry by planZipEntry, so one bad name is reported, not fatal.
      const reader = new ZipReader(new BlobReader(zip), { filenameValidation: 'tolerant' });
      let entries: Entry[];
      try {
        entries = await reader.getEntries();
      } catch {
        await reader.close().catch(() => undefined);
        throw new Error('UNREADABLE_ZIP');
      }
      const files: UnpackedFile[] = [];
      const failures: UnpackFailure[] = [];
      const folders: string[][] = [];
      const fail = (entry: Entry, reason: UnpackFailureReason) => failures.push({ name: entry.filename, message: UNPACK_FAILURE[reason] });
      for (const [index, entry] of entries.entries()) {
        const plan = planZipEntry(entry.filename, entry.directory);
        if (plan.kind === 'refused') fail(entry, plan.reason);
        else if (plan.kind === 'folder') folders.push(plan.path);
        else if (plan.kind === 'file' && !entry.directory) {
          if (entry.encrypted) {
            fail(entry, 'encrypted');
          } else {
            try {
              const blob = await entry.getData(new BlobWriter(), { checkCrc32: true });
              const lastModified = entry.lastModDate instanceof Date && !Number.isNaN(entry.lastModDate.getTime()) ? entry.lastModDate.getTime() : Date.now();
              files.push({ path: plan.target.path, file: new File([blob], plan.target.name, { lastModified }) });
            } catch (error) {
              fail(entry, failureReason(entry, error));
            }
          }
        }
        onProgress?.(index + 1, entries.length);
      }
      await reader.close();
      return { files, failures, emptyFolders: emptyFolderPaths(folders, files.map((f) => f.path)) } satisfies UnpackResult;
    },
  };
}
