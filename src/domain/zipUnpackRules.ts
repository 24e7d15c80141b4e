/**
 * 'Upload zip & unpack' (spec 000 sections 2, 5 and 8): which archive entries become files, in
 * which folders, and what the user reads when one cannot be unpacked. Entries then go through the
 * folder-upload path, so a zip behaves like a picked folder whose root is the archive's root.
 */
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
  /** Directory entries (folders come from the files' paths), macOS metadata and dot entries. */
  | { kind: 'skip' }
  /** A '..' segment: the entry claims a place outside the archive. Reported, not unpacked. */
  | { kind: 'unsafe' };

/** The macOS resource-fork folder that Finder adds to archives it makes. */
const MACOS_METADATA = '__MACOSX';

/**
 * Plans one entry by its name in the archive. Backslashes (written by some Windows tools) count
 * as separators; empty and '.' segments, and a leading '/', are dropped.
 */
export function planZipEntry(filename: string, isDirectory: boolean): ZipEntryPlan {
  const segments = filename
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return { kind: 'unsafe' };
  if (isDirectory || segments.length === 0) return { kind: 'skip' };
  if (segments.includes(MACOS_METADATA) || isSkippedEntry(segments)) return { kind: 'skip' };
  return { kind: 'file', target: { path: segments.slice(0, -1), name: segments[segments.length - 1]! } };
}

/** Why an entry was not unpacked, as the retry modal lists it next to the entry's name. */
export const UNPACK_FAILURE = {
  encrypted: 'It is encrypted in the archive, so it cannot be unpacked.',
  damaged: 'It is damaged in the archive and could not be unpacked.',
  unsupported: 'It is compressed with a method Cairn cannot unpack.',
  unsafe: 'Its path points outside the archive.',
} as const;
export type UnpackFailureReason = keyof typeof UNPACK_FAILURE;
