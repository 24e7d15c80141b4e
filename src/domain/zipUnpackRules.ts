/**
 * 'Upload zip & unpack' (spec 000 sections 2, 5 and 8): which archive entries become files, in
 * which folders, and what the user reads when one cannot be unpacked. Entries then go through the
 * folder-upload path, so a zip behaves like a picked folder whose root is the archive's root.
 */
import { VAULT_LIMITS } from '../protocol/vaults';
import { isSkippedEntry } from './uploadRules';

/** Spec 000 section 5: zip upload accepts only .zip. */
export function isZipFileName(name: string): boolean {
  return /\.zip$/i.test(name.trim());
}

export function notZipText(name: string): string {
  return `Only .zip files can be unpacked. "${name}" is not a .zip file.`;
}

export function unreadableZipText(name: string): string {
  return `"${name}" could not be opened as a zip archive.`;
}

export function emptyZipText(name: string): string {
  return `"${name}" holds no files to upload.`;
}

/** Where an entry goes: folders from the archive's root down, and the file's name. */
export interface ZipEntryTarget {
  path: string[];
  name: string;
}

export type ZipEntryPlan =
  | { kind: 'file'; target: ZipEntryTarget }
  /** A directory entry: its folders from the archive's root down (created even when empty). */
  | { kind: 'folder'; path: string[] }
  /** macOS metadata, dot entries, and a directory entry naming no folder (the root itself). */
  | { kind: 'skip' }
  /** Reported by the entry's name in the archive, not unpacked: the reason says why. */
  | { kind: 'refused'; reason: Exclude<UnpackFailureReason, 'encrypted' | 'damaged' | 'unsupported'> };

/** The macOS resource-fork folder that Finder adds to archives it makes. */
const MACOS_METADATA = '__MACOSX';

/** The longest file or folder name, as the rename and create dialogs allow (VAULT_LIMITS). */
const NAME_MAX = VAULT_LIMITS.NAME_MAX;

// C0 and C1 control characters (a NUL, a line break, an escape): no dialog can type them, a row
// would show them as nothing or break its line, and a file saved under the name would be refused
// by the user's own file system. U+2028/2029 break lines the same way.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A path that starts at a root: '/x', '\\x' (as '/x' once read), 'C:/x' or '//server/share/x'. */
function isAbsolute(slashed: string): boolean {
  return slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed);
}

/**
 * Plans one entry by its name in the archive. Backslashes (written by some Windows tools) count
 * as separators; empty and '.' segments are dropped. Zip slip: an entry with a '..' segment or an
 * absolute path (a leading slash or a drive letter) claims a place outside the archive and is
 * refused rather than quietly moved, so the user learns that the archive was not what it said.
 * A segment the app could not name a file or folder with (control characters, only spaces, over
 * NAME_MAX characters) is refused too: the vault never holds a name no dialog could have made.
 * Refusals come before skips so that '../.hidden' is still reported.
 */
export function planZipEntry(filename: string, isDirectory: boolean): ZipEntryPlan {
  const slashed = filename.replace(/\\/g, '/');
  const segments = slashed.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..') || isAbsolute(slashed)) return { kind: 'refused', reason: 'unsafe' };
  if (segments.some((segment) => CONTROL_CHARACTERS.test(segment) || segment.trim() === '')) return { kind: 'refused', reason: 'badName' };
  if (segments.some((segment) => segment.length > NAME_MAX)) return { kind: 'refused', reason: 'longName' };
  if (segments.length === 0 || segments.includes(MACOS_METADATA) || isSkippedEntry(segments)) return { kind: 'skip' };
  if (isDirectory) return { kind: 'folder', path: segments };
  return { kind: 'file', target: { path: segments.slice(0, -1), name: segments[segments.length - 1]! } };
}

/**
 * The folders of directory entries that no unpacked file (nor a deeper folder) creates on its
 * way: an archive's empty folders, each given once by its deepest path, in archive order. Their
 * parents come with them, as a file's do.
 */
export function emptyFolderPaths(folders: readonly (readonly string[])[], filePaths: readonly (readonly string[])[]): string[][] {
  const key = (path: readonly string[]) => JSON.stringify(path);
  const created = new Set<string>();
  const addAncestors = (path: readonly string[], upTo: number) => {
    for (let depth = 1; depth <= upTo; depth++) created.add(key(path.slice(0, depth)));
  };
  for (const path of filePaths) addAncestors(path, path.length);
  for (const path of folders) addAncestors(path, path.length - 1);
  const seen = new Set<string>();
  const empty: string[][] = [];
  for (const path of folders) {
    const id = key(path);
    if (created.has(id) || seen.has(id)) continue;
    seen.add(id);
    empty.push([...path]);
  }
  return empty;
}

/** Why an entry was not unpacked, as the retry modal lists it next to the entry's name. */
export const UNPACK_FAILURE = {
  encrypted: 'It is encrypted in the archive, so it cannot be unpacked.',
  damaged: 'It is damaged in the archive and could not be unpacked.',
  unsupported: 'It is compressed with a method Cairn cannot unpack.',
  unsafe: 'Its path points outside the archive.',
  badName: 'Its name holds characters a file or folder name cannot have.',
  longName: `Its name is longer than ${VAULT_LIMITS.NAME_MAX} characters.`,
} as const;
export type UnpackFailureReason = keyof typeof UNPACK_FAILURE;
