/**
 * The signed-in user's $U balance (SYNC_SPEC R109-R110): read with GET /utoken on start and
 * whenever the realtime socket (re)opens, moved by `tokenBalance` socket messages and by the
 * answer to the user's own transfer. Of all these, the figure read at the highest ledger
 * `headSeq` wins, so a message that arrives late (or a read that raced a transfer) never takes
 * the balance back. In memory only: the figure is the server's, shown when it can be had.
 */
import { useSyncExternalStore } from 'react';
import { type ApiClient, NetworkError } from '../platform/apiClient';
import { ApiError } from '../protocol/errors';
import { TokenBalance } from '../protocol/ledger';

export interface TokenState {
  /** Millionths of a U; null until first read. */
  balance: string | null;
  headSeq: number;
  address: string | null;
  /** Whether the plan lets the user send (null until first read). */
  canSend: boolean | null;
}

const EMPTY: TokenState = { balance: null, headSeq: -1, address: null, canSend: null };

export class TokenSync {
  private state: TokenState = EMPTY;
  private stopped = false;
  private isClosedToUs = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly api: ApiClient,
    private readonly log: (message: string, detail?: unknown) => void = (m, d) => console.warn(m, d ?? ''),
  ) {}

  get current(): TokenState {
    return this.state;
  }

  stop(): void {
    this.stopped = true;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** GET /utoken. Never throws (offline keeps what is shown). */
  async refresh(): Promise<void> {
    if (this.isClosedToUs) return;
    try {
      const read = await this.api.get('/utoken', TokenBalance);
      if (this.stopped) return;
      // The plan's answer and the address are news whatever the seq; the balance only if newer.
      this.set({ ...this.state, address: read.address, canSend: read.canSend });
      this.receive(read.balance, read.headSeq);
    } catch (error) {
      // A passwordless (airdrop) session has no Rewards (spec 000 section 1): asked once, not again.
      if (error instanceof ApiError && error.code === 'FORBIDDEN') this.isClosedToUs = true;
      else if (!(error instanceof NetworkError)) this.log('The $U balance could not be loaded', error);
    }
  }

  /** A balance after ledger entry `headSeq` (a socket message, a transfer's answer): kept if newer. */
  receive(balance: string, headSeq: number): void {
    if (this.stopped || headSeq < this.state.headSeq) return;
    if (headSeq === this.state.headSeq && balance === this.state.balance) return;
    this.set({ ...this.state, balance, headSeq });
  }

  private set(next: TokenState): void {
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}

let current: TokenSync | null = null;
const currentListeners = new Set<() => void>();

export function setCurrentTokenSync(sync: TokenSync | null): void {
  current?.stop();
  current = sync;
  for (const listener of currentListeners) listener();
}

export function currentTokenSync(): TokenSync | null {
  return current;
}

/** The session's balance (EMPTY before the first read or when signed out). */
export function useTokenBalance(): TokenState {
  return useSyncExternalStore(
    (listener) => {
      currentListeners.add(listener);
      // A new session's sync tells currentListeners; the render that follows subscribes to it.
      const unsubscribe = current?.subscribe(listener);
      return () => {
        currentListeners.delete(listener);
        unsubscribe?.();
      };
    },
    () => current?.current ?? EMPTY,
    () => EMPTY,
  );
}
