/**
 * Where the NFT pages read from. Signed in: the vault's cached verified operations in Dexie
 * (opPages, the pages a pull judged, R50), live, so a pull that brings a mint shows it. Signed out:
 * the public viewer's in-memory pulled operations (PublicVault.nftLog, publicNftView.ts). Chain states (data item,
 * bundle, status) from GET .../nfts/chain (R140), asked again while a mint is on its way.
 */
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import { type NftLogEntry, nftsOfVault, type VaultNfts } from '../../domain/nftsOfVault';
import { type NftChainState, NftChainStates } from '../../protocol/nfts';
import { getDb, type CairnDb } from '../../storage/db';
import { useStoreAccount } from '../../storage/vaultStore';

/** How often an open page asks again while a mint is not final (statuses are not pushed). */
const CHAIN_REFRESH_MS = 10_000;
const FINAL_STATUSES: ReadonlySet<NftChainState['status']> = new Set(['REGISTERED', 'REJECTED', 'BLOCKED']);

/** The vault's verified NFT operations from its cached pages (refused ones are never read). */
export async function readNftLog(db: CairnDb, accountId: string, vaultId: string): Promise<NftLogEntry[]> {
  // An explicit read transaction: inside useLiveQuery Dexie otherwise deep-copies every page
  // (see readTimeline); the read is observed all the same.
  return db.transaction('r', [db.opPages], async () => {
    const pages = await db.opPages.where('[accountId+vaultId+firstSeq]').between([accountId, vaultId, Dexie.minKey], [accountId, vaultId, Dexie.maxKey]).toArray();
    const entries: NftLogEntry[] = [];
    for (const page of pages) {
      for (const cached of page.ops) {
        const type = cached.op.body.type;
        if (cached.isVerified && (type === 'nft.mint' || type === 'nft.collection')) entries.push({ seq: cached.seq, time: cached.receivedAt, op: cached.op });
      }
    }
    return entries;
  });
}

/** A member's view of the vault's NFTs, live (undefined while the first read is in flight). */
export function useMemberVaultNfts(vaultId: string): VaultNfts | undefined {
  const accountId = useStoreAccount();
  const log = useLiveQuery(() => (accountId ? readNftLog(getDb(), accountId, vaultId) : []), [accountId, vaultId]);
  return useMemo(() => (log ? nftsOfVault(log) : undefined), [log]);
}

/** Asks the server for the vault's chain states (the members' or the public route). */
export type FetchChainStates = () => Promise<NftChainState[]>;

/** Validated at the edge: the answer of GET .../nfts/chain, whoever asked. */
export async function parseChainStates(response: Response): Promise<NftChainState[]> {
  if (!response.ok) throw new Error(`Chain states: ${response.status}`);
  const parsed = NftChainStates.safeParse(await response.json());
  if (!parsed.success) throw new Error('Chain states: unexpected answer');
  return parsed.data.items;
}

/**
 * The vault's chain states by object id. A failed request (a 404 before the server serves the
 * route, offline) leaves what was known: an NFT without a state is 'not on the network yet'.
 * Asked again every CHAIN_REFRESH_MS while `expectedIds` has one without a final state.
 */
export function useNftChainStates(vaultId: string, fetchStates: FetchChainStates, expectedIds: readonly string[]): ReadonlyMap<string, NftChainState> {
  const [states, setStates] = useState<{ vaultId: string; byId: Map<string, NftChainState> }>({ vaultId, byId: new Map() });
  const [tick, setTick] = useState(0);
  const current = states.vaultId === vaultId ? states.byId : EMPTY;
  const isSettled = expectedIds.every((id) => {
    const status = current.get(id)?.status;
    return status !== undefined && FINAL_STATUSES.has(status);
  });

  // Asked when the page opens (fetchStates changes with the vault id, which it closes over) and on every tick.
  useEffect(() => {
    let isCurrent = true;
    fetchStates().then(
      (items) => isCurrent && setStates({ vaultId, byId: new Map(items.map((item) => [item.objectId, item])) }),
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [fetchStates, tick]);

  // Ticks only while a mint is on its way.
  useEffect(() => {
    if (isSettled) return;
    const timer = setTimeout(() => setTick((n) => n + 1), CHAIN_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [isSettled, tick]);
  return current;
}

const EMPTY: ReadonlyMap<string, NftChainState> = new Map();
