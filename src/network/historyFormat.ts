/**
 * The formats of a permanent vault's history on the network (docs/SYNC_SPEC.md R84, R85, R87):
 * what a history item's data holds, the tags that find it, and an encrypted export's manifest.
 * Shared by the reader (restoreReader.ts), the `cairn` command line and the writers of these
 * items, so the one schema both sides parse is here.
 */
import { VaultHistoryRun } from '../protocol/vaultHistory';

/**
 * A run as R86 reads it: its data parses, names the vault and seqs its tags name, and holds the
 * operations seqFrom..seqTo in order, each exactly once. Null for anything else (anyone can post
 * an item with these tags).
 */
export function parseRun(data: Uint8Array, expected: { vaultId: string; seqFrom?: number; seqTo?: number }): VaultHistoryRun | null {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    return null;
  }
  // The schema checks that the operations are seqFrom..seqTo, in order, each of the run's vault.
  const parsed = VaultHistoryRun.safeParse(json);
  if (!parsed.success) return null;
  const run = parsed.data;
  if (run.vaultId !== expected.vaultId) return null;
  if (expected.seqFrom !== undefined && run.seqFrom !== expected.seqFrom) return null;
  if (expected.seqTo !== undefined && run.seqTo !== expected.seqTo) return null;
  return run;
}

/** R87: the entry name of the run starting at `seqFrom` (10 digits). */
export function exportRunEntryName(seqFrom: number): string {
  return `history/${String(seqFrom).padStart(10, '0')}.json`;
}
