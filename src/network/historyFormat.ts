/**
 * How a reader takes an item that claims to be a history run (docs/SYNC_SPEC.md R86); the formats
 * themselves are src/protocol/vaultHistory.ts, which the relay writes by.
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
