/** Writes a file beside its place, renamed into it only once every chunk checked out. */
import fsp from 'node:fs/promises';
import path from 'node:path';

export function fileSink(target: string) {
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.cairn-partial`);
  let handle: fsp.FileHandle | null = null;
  return {
    async write(bytes: Uint8Array) {
      handle ??= await fsp.open(partial, 'w');
      await handle.write(bytes);
    },
    async discard() {
      await handle?.close();
      handle = null;
      await fsp.rm(partial, { force: true });
    },
    async finish() {
      handle ??= await fsp.open(partial, 'w');
      await handle.close();
      handle = null;
      await fsp.rename(partial, target);
    },
  };
}
