/**
 * What a file or folder may be called (SYNC_SPEC R73). One function, `nodeNameError`, used by
 * every client entry point: the rename and create-folder dialogs, note saves, moves (drag and the
 * move dialog) and uploads. Names are sealed in private vaults, so the server cannot check them;
 * the device that writes a name checks it against the names it can read.
 *
 * A name must survive being saved to disk by a download on any common system (Windows, macOS,
 * Linux), and must not take the name of an active item of the same folder. Names are compared
 * the way Windows and macOS compare them by default: case-insensitively, after Unicode NFC
 * normalisation ('Photo.PNG' and 'photo.png' are one name there, so two of them could not both be
 * downloaded into one folder).
 */

/** Most bytes of a name in UTF-8: the limit of ext4, APFS and NTFS (255 UTF-16 units) alike. */
export const NAME_MAX_BYTES = 255;

/** Characters Windows refuses in a name ('/' and '\' are path separators everywhere). */
const FORBIDDEN_CHARACTERS = /[/\\:*?"<>|]/;
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
/** Device names Windows keeps, with or without an extension ('CON', 'nul.txt', 'COM1.log'). */
const RESERVED_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

export const NAME_TEXTS = {
  empty: 'Enter a name.',
  forbidden: 'A name cannot contain any of these characters: / \\ : * ? " < > |',
  control: 'A name cannot contain control characters such as tabs or line breaks.',
  onlyDots: 'A name cannot be only dots.',
  trailing: 'A name cannot end with a space or a dot.',
  leading: 'A name cannot start with a space.',
  tooLong: 'This name is too long: at most 255 bytes (letters with accents and emoji take two to four each).',
  reserved: (name: string) => `"${name}" is a name Windows keeps for devices. Choose another name.`,
  taken: (name: string) => `There is already an item named "${name}" in this folder.`,
  takenByMove: (name: string) => `The destination folder already has an item named "${name}". Rename one of them first.`,
} as const;

/** The key two names are compared by: equal keys cannot sit in one folder. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** Whether `a` and `b` are the same name to a file system (case and Unicode form aside). */
export function isSameName(a: string, b: string): boolean {
  return nameKey(a) === nameKey(b);
}

/** Why `name` cannot be saved on common file systems, or null when it can. Takes the name as given: trim first. */
export function nameFormatError(name: string): string | null {
  if (name === '') return NAME_TEXTS.empty;
  if (CONTROL_CHARACTERS.test(name)) return NAME_TEXTS.control;
  if (FORBIDDEN_CHARACTERS.test(name)) return NAME_TEXTS.forbidden;
  if (/^\.+$/.test(name)) return NAME_TEXTS.onlyDots;
  if (/^\s/.test(name)) return NAME_TEXTS.leading;
  if (/[\s.]$/.test(name)) return NAME_TEXTS.trailing;
  if (RESERVED_NAME.test(name)) return NAME_TEXTS.reserved(name);
  if (new TextEncoder().encode(name).length > NAME_MAX_BYTES) return NAME_TEXTS.tooLong;
  return null;
}

export interface SiblingName {
  id: string;
  name: string;
}

/** The sibling (active item of the destination folder) whose name `name` would repeat, other than the item itself. */
export function findNameClash<T extends SiblingName>(name: string, siblings: Iterable<T>, selfId?: string): T | undefined {
  const key = nameKey(name);
  for (const sibling of siblings) if (sibling.id !== selfId && nameKey(sibling.name) === key) return sibling;
  return undefined;
}

/**
 * Why `name` cannot be given to an item (`selfId` when renaming or moving it) among `siblings`,
 * the active items of the folder it goes to; null when it can.
 */
export function nodeNameError(name: string, siblings: Iterable<SiblingName>, selfId?: string): string | null {
  const formatError = nameFormatError(name);
  if (formatError) return formatError;
  const clash = findNameClash(name, siblings, selfId);
  return clash ? NAME_TEXTS.taken(clash.name) : null;
}

/**
 * A name an upload can keep (R73): a file picked from a disk whose system allows more than others
 * (Linux allows ':' and '?', for one) is not refused but saved under a name every system can
 * save: each forbidden or control character becomes '_', trailing dots and spaces go, a
 * device name gets a leading '_', and an overlong name is cut before its extension.
 */
export function uploadSafeName(name: string): string {
  let safe = name.replace(/[/\\:*?"<>|\u0000-\u001f\u007f-\u009f]/g, '_').trim().replace(/[\s.]+$/, '');
  if (safe === '' || /^\.+$/.test(safe)) safe = '_';
  if (RESERVED_NAME.test(safe)) safe = `_${safe}`;
  const encoder = new TextEncoder();
  if (encoder.encode(safe).length <= NAME_MAX_BYTES) return safe;
  const dot = safe.lastIndexOf('.');
  const extension = dot > 0 && safe.length - dot <= 16 ? safe.slice(dot) : '';
  let base = safe.slice(0, safe.length - extension.length);
  while (base && encoder.encode(base + extension).length > NAME_MAX_BYTES) base = [...base].slice(0, -1).join('');
  return base.replace(/[\s.]+$/, '') + extension;
}
