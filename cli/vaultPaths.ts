/**
 * `VAULT[/path/to/item]` as the commands take it: the vault by id, or by name (a name may hold
 * '/': the longest name that fits wins), then folder names down from its root as the app shows
 * them (names compared as the app compares them for clashes).
 */
import { isSameName } from '../src/domain/nodeNames';
import type { CairnDb } from '../src/storage/db';
import type { NodeRecord, VaultRecord } from '../src/storage/vaultRecords';
import { getChildren, getVaults } from '../src/storage/vaultStore';
import { CliError } from './CliError';

export interface VaultPath {
  vault: VaultRecord;
  /** The names below the vault's root, outermost first. */
  segments: string[];
}

export function splitPath(text: string): string[] {
  return text.split('/').filter((segment) => segment.length > 0);
}

/** The vault `text` starts with, and the rest of the path. */
export async function resolveVault(db: CairnDb, accountId: string, text: string): Promise<VaultPath> {
  const segments = splitPath(text);
  if (!segments.length) throw new CliError('BAD_INPUT', 'Name a vault (cairn ls lists them).');
  const vaults = await getVaults(db, accountId, 'active');
  const byId = vaults.find((v) => v.vaultId === segments[0]);
  if (byId) return checkMember({ vault: byId, segments: segments.slice(1) });
  for (let count = segments.length; count >= 1; count--) {
    const name = segments.slice(0, count).join('/');
    const named = vaults.filter((v) => v.name === name);
    if (named.length > 1) throw new CliError('BAD_INPUT', `${named.length} vaults are named "${name}": name it by its id (cairn ls lists them).`);
    if (named.length === 1) return checkMember({ vault: named[0]!, segments: segments.slice(count) });
  }
  throw new CliError('UNKNOWN_VAULT', `No vault "${segments[0]}" among your vaults (cairn ls lists them).`);
}

function checkMember(found: VaultPath): VaultPath {
  if (found.vault.membershipStatus !== 'ACCEPTED') throw new CliError('NOT_MEMBER', `You are not a member of the vault "${found.vault.name}" (accept its invitation in the app first).`);
  return found;
}

/** The node at `segments` (null: the vault's root). */
export async function resolveNode(db: CairnDb, accountId: string, found: VaultPath): Promise<NodeRecord | null> {
  let node: NodeRecord | null = null;
  const walked: string[] = [];
  for (const segment of found.segments) {
    if (node && node.kind !== 'folder') throw new CliError('BAD_INPUT', `"${walked.join('/')}" is a file, not a folder.`);
    const children = await getChildren(db, accountId, found.vault.vaultId, node?.id ?? null);
    walked.push(segment);
    const next = children.find((child) => child.name === segment) ?? children.find((child) => isSameName(child.name, segment));
    if (!next) throw new CliError('BAD_INPUT', `Nothing is at "${walked.join('/')}" in the vault "${found.vault.name}".`);
    node = next;
  }
  return node;
}
