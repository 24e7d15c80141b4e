import { nameKey } from './nodeNames';

/**
 * Duplicate names in an upload (spec 000 section 4, upload flow): 'Keep both' gives the new file
 * a copy suffix before its extension: ' copy', then ' 2', ' 3', ...
 */

/** Splits 'report.final.pdf' into ['report.final', '.pdf']; dot files and names without a dot have no extension. */
export function splitExtension(name: string): [base: string, extension: string] {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/** The first free name among 'a copy.txt', 'a 2.txt', 'a 3.txt', ... (compared as R73 compares: nameKey). */
export function keepBothName(name: string, takenNames: Iterable<string>): string {
  const taken = new Set([...takenNames].map(nameKey));
  const [base, extension] = splitExtension(name);
  const first = `${base} copy${extension}`;
  if (!taken.has(nameKey(first))) return first;
  for (let n = 2; ; n += 1) {
    const candidate = `${base} ${n}${extension}`;
    if (!taken.has(nameKey(candidate))) return candidate;
  }
}
