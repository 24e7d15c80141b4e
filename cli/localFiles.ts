/**
 * The files of `cairn upload PATH...` as the app's folder pick gives them: each file with the
 * folder names above it (the picked folder's own name first), the empty folders apart, and dot
 * entries (.DS_Store, .git) left out as the app leaves them out (spec 000 section 5).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { UploadItem } from '../src/sync/vaultActions';
import { CliError } from './CliError';

export interface LocalFile {
  /** Absolute path on this machine. */
  source: string;
  /** Folder names in the vault below the destination, outermost first. */
  folders: string[];
  name: string;
}

/** MIME types by extension, as a browser gives a picked file's `type` (the rest: none, stored as application/octet-stream). */
const MIME_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.html': 'text/html',
};

export function mimeTypeOf(name: string): string {
  return MIME_TYPES[path.extname(name).toLowerCase()] ?? '';
}

const isDotName = (name: string) => name.startsWith('.');

/** Walks the paths given; answers their files (in a stable order) and their empty folders. */
export async function collectLocalFiles(paths: readonly string[]): Promise<{ files: LocalFile[]; emptyFolders: string[][] }> {
  const files: LocalFile[] = [];
  const emptyFolders: string[][] = [];
  const walk = async (dir: string, folders: string[]) => {
    const entries = (await fsp.readdir(dir, { withFileTypes: true })).filter((e) => !isDotName(e.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (!entries.length) emptyFolders.push(folders);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, [...folders, entry.name]);
      else if (entry.isFile()) files.push({ source: full, folders, name: entry.name });
    }
  };
  for (const given of paths) {
    const source = path.resolve(given);
    let stat: fs.Stats;
    try {
      stat = await fsp.stat(source);
    } catch {
      throw new CliError('BAD_INPUT', `${given} does not exist.`);
    }
    if (isDotName(path.basename(source)) && path.basename(source) !== '.' && path.basename(source) !== '..') continue;
    if (stat.isDirectory()) await walk(source, [path.basename(source)]);
    else if (stat.isFile()) files.push({ source, folders: [], name: path.basename(source) });
    else throw new CliError('BAD_INPUT', `${given} is neither a file nor a folder.`);
  }
  return { files, emptyFolders };
}

/** A file on disk as the browser's File: read lazily, chunk by chunk, with its modification time. */
export async function openLocalFile(source: string, name: string): Promise<File> {
  const stat = await fsp.stat(source);
  const blob = await fs.openAsBlob(source, { type: mimeTypeOf(name) });
  return new File([blob], name, { type: mimeTypeOf(name), lastModified: Math.floor(stat.mtimeMs) });
}

/** The app's upload items, under the destination folders `to`. */
export async function toUploadItems(files: readonly LocalFile[], to: readonly string[]): Promise<UploadItem[]> {
  return Promise.all(files.map(async (f) => ({ file: await openLocalFile(f.source, f.name), path: [...to, ...f.folders] })));
}
