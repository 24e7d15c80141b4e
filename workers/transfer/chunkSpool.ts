/**
 * Where a sealed chunk waits for its PUT: a file in the origin private file system (OPFS), sent
 * as the disk-backed File it reads back as. A Blob made from the bytes would do as a body, but
 * Chromium keeps such a Blob's bytes in its browser process until the worker that made it next
 * collects garbage, which a worker with a small heap rarely does: a long upload then grew the
 * browser's memory by about the size of the file. A spooled chunk's bytes are in the worker only
 * while it is written, and on disk until its PUT ends, when the file is removed.
 *
 * Without OPFS (Node in tests, a browser that refuses it) chunks go as in-memory Blobs.
 * Each account has its own folder (`scope`). Files left by a crash or a dropped chunk are removed
 * by `clear`, which the upload queue calls before each run while it holds the account's upload
 * lock (none of that account's uploads is then sending), and log out removes the folder.
 */
export const SPOOL_DIRECTORY = 'cairn-sealed-chunks';

export interface SpooledChunk {
  body: Blob;
  /** The spool file's name, to `drop` once sent; null when the body is an in-memory Blob. */
  name: string | null;
}

export interface ChunkSpool {
  keep(bytes: Uint8Array<ArrayBuffer>, scope: string): Promise<SpooledChunk>;
  /** Removes one spooled chunk (sent, or given up); quiet when it is gone already. */
  drop(name: string): Promise<void>;
  /** Removes every chunk spooled in `scope`. */
  clear(scope: string): Promise<void>;
}

/** A scope's folder name: an account id as it is, anything else made safe for a file name. */
function folderOf(scope: string): string {
  return scope.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100) || '_';
}

/**
 * The spool's folder for `scope`, looked up each time (log out may have removed it meanwhile):
 * made when missing if `create`, else null; null too without a spool.
 */
async function spoolFolder(storage: StorageManager | null | undefined, scope: string, create: boolean): Promise<FileSystemDirectoryHandle | null> {
  if (!storage?.getDirectory) return null;
  try {
    const spool = await (await storage.getDirectory()).getDirectoryHandle(SPOOL_DIRECTORY, { create });
    return await spool.getDirectoryHandle(folderOf(scope), { create });
  } catch {
    return null;
  }
}

/** Log out: removes an account's spooled chunks, where the platform has a spool. */
export async function removeSpool(scope: string, storage: StorageManager | undefined = globalThis.navigator?.storage): Promise<void> {
  try {
    const spool = await (await storage?.getDirectory?.())?.getDirectoryHandle(SPOOL_DIRECTORY);
    await spool?.removeEntry(folderOf(scope), { recursive: true });
  } catch {
    // No spool, or no such folder: nothing to remove.
  }
}

/** The part of a FileSystemSyncAccessHandle (dedicated workers only) the spool uses. */
interface SyncAccessHandle {
  write(buffer: Uint8Array, options: { at: number }): number;
  close(): void;
}
type SyncAccessFileHandle = FileSystemFileHandle & { createSyncAccessHandle?: () => Promise<SyncAccessHandle> };

function inMemory(bytes: Uint8Array<ArrayBuffer>): SpooledChunk {
  return { body: new Blob([bytes]), name: null };
}

/** `storage` null: no spool, every chunk an in-memory Blob. */
export function createChunkSpool(storage: StorageManager | null | undefined = globalThis.navigator?.storage): ChunkSpool {
  return {
    async keep(bytes, scope) {
      const dir = await spoolFolder(storage, scope, true);
      if (!dir) return inMemory(bytes);
      const file = `${crypto.randomUUID()}.chunk`;
      const name = `${folderOf(scope)}/${file}`;
      let handle: SyncAccessFileHandle | null = null;
      try {
        handle = (await dir.getFileHandle(file, { create: true })) as SyncAccessFileHandle;
        if (!handle.createSyncAccessHandle) throw new Error('no sync access handles here');
        const access = await handle.createSyncAccessHandle();
        try {
          for (let at = 0; at < bytes.length; ) at += access.write(bytes.subarray(at), { at });
        } finally {
          access.close();
        }
        const body = await handle.getFile();
        if (body.size !== bytes.length) throw new Error('short spool write');
        return { body, name };
      } catch {
        // A full disk or a refused file costs the spool, never the upload.
        if (handle) await dir.removeEntry(file).catch(() => undefined);
        return inMemory(bytes);
      }
    },

    async drop(name) {
      const [folder, file] = name.split('/');
      if (!folder || !file) return;
      const dir = await spoolFolder(storage, folder, false);
      await dir?.removeEntry(file).catch(() => undefined);
    },

    async clear(scope) {
      const dir = await spoolFolder(storage, scope, false);
      if (!dir) return;
      const names: string[] = [];
      for await (const name of (dir as FileSystemDirectoryHandle & { keys(): AsyncIterable<string> }).keys()) names.push(name);
      await Promise.all(names.map((name) => dir.removeEntry(name).catch(() => undefined)));
    },
  };
}
