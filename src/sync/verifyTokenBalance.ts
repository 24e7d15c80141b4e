/**
 * Checks the $U balance the server shows against the chain it serves (SYNC_SPEC R106, R110):
 * reads the balance (with the headSeq it is the replay of), the ledger key and the whole chain up
 * to that seq, and replays it with `replayLedger`. The figure is "verified" only when the chain
 * replays cleanly to that seq under the ledger key and gives the user exactly that balance; a
 * chain that stops short (entries withheld), does not replay (forged, reordered) or gives another
 * figure is a mismatch, said plainly on the Rewards page.
 *
 * The whole chain is read because a balance depends on every entry to and from the address,
 * whose order only the chain proves. Pages of LEDGER_PAGE_MAX; cheap for the ledgers a
 * self-hosted server holds, and run only on opening /rewards and after a send.
 */
import type { ApiClient } from '../platform/apiClient';
import { replayLedger, type LedgerFault } from '../crypto/ledger';
import { LEDGER_PAGE_MAX, LedgerEntryPage, LedgerInfo, TokenBalance } from '../protocol/ledger';

export type BalanceCheck =
  | { kind: 'verified'; balance: string; headSeq: number }
  | { kind: 'mismatch'; shown: string; replayed: string; headSeq: number; reason: 'figure' | 'missing-entries' | LedgerFault };

/** Reads and replays; throws what the API client throws (offline: NetworkError). */
export async function verifyTokenBalance(api: ApiClient): Promise<BalanceCheck> {
  const shown = await api.get('/utoken', TokenBalance);
  const info = await api.get('/ledger', LedgerInfo);
  const entries: unknown[] = [];
  let after = 0;
  // Entries placed after the balance was read are left out: the figure is the replay up to its headSeq.
  while (after < shown.headSeq) {
    const page = await api.get(`/ledger/entries?after=${after}&limit=${LEDGER_PAGE_MAX}`, LedgerEntryPage);
    const upTo = page.items.filter((entry) => entry.seq <= shown.headSeq);
    entries.push(...upTo);
    const last = page.items.at(-1);
    if (!last || last.seq <= after) break;
    after = last.seq;
    if (page.next === null) break;
  }
  const replay = await replayLedger(entries, { serverKey: info.serverKey });
  const replayed = (replay.balances.get(shown.address) ?? 0n).toString();
  const base = { shown: shown.balance, replayed, headSeq: shown.headSeq };
  if (replay.bad) return { kind: 'mismatch', ...base, reason: replay.bad.fault };
  if (replay.headSeq < shown.headSeq) return { kind: 'mismatch', ...base, reason: 'missing-entries' };
  if (replayed !== shown.balance) return { kind: 'mismatch', ...base, reason: 'figure' };
  return { kind: 'verified', balance: shown.balance, headSeq: shown.headSeq };
}
