/**
 * How a reader takes an item that claims to be a history run (docs/SYNC_SPEC.md R86); the formats
 * themselves are src/protocol/vaultHistory.ts, which the relay writes by.
 */
import { concatBytes } from '../crypto/encoding';
import { VaultHistoryRun } from '../protocol/vaultHistory';

/** A tag's value as a number when it is decimal digits only (a tag is text anyone wrote), else null. */
export function decimalTag(tags: readonly { name: string; value: string }[], name: string): number | null {
  const value = tags.find((tag) => tag.name === name)?.value;
  return value !== undefined && /^[0-9]{1,15}$/.test(value) ? Number(value) : null;
}

/**
 * A response's body, or null when it holds more than `limit` bytes: anyone can post a huge item
 * with a vault's tags, so no more is read (leaving the loop cancels the body).
 */
export async function readAtMost(response: Response, limit: number): Promise<Uint8Array | null> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += part.length;
    if (total > limit) return null;
    parts.push(part);
  }
  return concatBytes(...parts);
}

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
