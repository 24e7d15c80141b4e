/**
 * One per signed-in account: pushes the outbox, pulls every vault by cursor, drives the upload
 * queue and publishes a sync status. Runs are serialised (one push+pull cycle at a time; a
 * request during a run schedules exactly one more). Polls every 10 s while the page is visible;
 * `poke(vaultId)` is the entry point for the WebSocket's "vault X is at seq N" messages.
 * Failures back off exponentially with jitter and never lose queued work.
 */
import { NetworkError } from '../platform/apiClient';
import { getDefaultStore, type SyncStatus } from './syncStatus';
import { refreshOfflineVaults } from './offlineFiles';
import { dismissRejectedOperation, isRetryable, pushOutbox } from './outbox';
import { refreshChangedMembers } from './memberList';
import { rotateWhereNeeded } from './members';
import { acceptOrganisationAirdrops } from './organisationAirdrops';
import { shareQueuedVaults } from './adminShares';
import { pullAll, pullVaultIfMember, type PullStats } from './pull';
import { defaultNewId, type SyncContext, type SyncPorts, type SyncUser } from './SyncContext';
import { UploadQueue } from './uploadQueue';

export const POLL_INTERVAL_MS = 10_000;
/** While the realtime socket is open pokes bring news; polling is only a safety net then. */
export const POLL_INTERVAL_WITH_SOCKET_MS = 60_000;
const MAX_BACKOFF_MS = 60_000;

export interface SyncClientOptions {
  /** 0 turns polling off (tests drive `syncNow`). Default POLL_INTERVAL_MS. */
  pollIntervalMs?: number;
  /** Publishes status here; default the module store read by useSyncStatus(). */
  statusStore?: ReturnType<typeof getDefaultStore>;
}

export class SyncClient {
  private ctx: SyncContext | null = null;
  private uploads: UploadQueue | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private pokedVaults = new Set<string>();
  private failures = 0;
  private isRealtimeOpen = false;
  /** Whether the last cycle reached the server and finished (syncAndConfirm answers it). */
  private isLastCycleOk = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When `timer` fires (epoch ms), and whether it is a retry after a failure. */
  private timerDueAt = 0;
  private isTimerRetry = false;
  private readonly pollIntervalMs: number;
  private readonly status: ReturnType<typeof getDefaultStore>;
  private readonly cleanups: (() => void)[] = [];
  /** Counted across the session; logged as they happen. */
  readonly stats: PullStats = { applied: 0, unverified: 0 };

  constructor(
    private readonly ports: SyncPorts,
    options: SyncClientOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? POLL_INTERVAL_MS;
    this.status = options.statusStore ?? getDefaultStore();
  }

  /** The context sync modules run with; throws when not started. */
  get context(): SyncContext {
    if (!this.ctx) throw new Error('Cairn sync is not started.');
    return this.ctx;
  }

  get isStarted(): boolean {
    return this.ctx !== null;
  }

  start(accountId: string, user: SyncUser): void {
    if (this.ctx) this.stop();
    const ports = this.ports;
    const ctx: SyncContext = {
      db: ports.db,
      api: ports.api,
      crypto: ports.crypto,
      transfer: ports.transfer,
      now: ports.now ?? Date.now,
      newId: ports.newId ?? defaultNewId,
      log: ports.log ?? ((message, detail) => console.warn(`[sync] ${message}`, detail ?? '')),
      accountId,
      user,
      requestPush: () => this.requestRun(),
      requestUploads: () => this.uploads?.kick(),
    };
    this.ctx = ctx;
    this.uploads = new UploadQueue(ctx);
    this.failures = 0;
    this.listen();
    this.requestRun();
    // Resumes uploads interrupted by a reload or a crash.
    this.uploads.kick();
  }

  stop(): void {
    this.ctx = null;
    this.uploads?.stop();
    this.uploads = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.isRealtimeOpen = false;
    this.isLastCycleOk = false;
    this.status.set({ isActive: false, hasError: false, hasSynced: false, isReachable: true });
  }

  /**
   * The realtime socket opened (true) or closed (false). While it is open, polls slow down to
   * POLL_INTERVAL_WITH_SOCKET_MS; when it opens, a cycle catches up on pokes missed meanwhile.
   * When it closes, no poke will come, so a slow poll still waiting is brought forward to the
   * usual interval (a restarted server, or a session that ended, is then seen within it).
   */
  setRealtimeOpen(open: boolean): void {
    if (open === this.isRealtimeOpen) return;
    this.isRealtimeOpen = open;
    if (open) this.requestRun();
    else if (this.timer && this.pollIntervalMs && this.timerDueAt - Date.now() > this.pollIntervalMs) {
      this.schedule(this.pollIntervalMs, this.isTimerRetry);
    }
  }

  /** The WebSocket hook: vault `vaultId` has news on the server. Pulls it soon. */
  poke(vaultId: string): void {
    this.pokedVaults.add(vaultId);
    this.requestRun();
  }

  /** Asks for a push and pull cycle (coalesced with one in progress). */
  requestRun(): void {
    if (!this.ctx) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  /** Runs a cycle now and waits for it and any work it queued (tests, pull-to-refresh). */
  async syncNow(): Promise<void> {
    this.requestRun();
    await this.idle();
  }

  /**
   * Runs a push and pull cycle now (after the one running, if any) and answers whether it reached
   * the server and finished: true means the device now holds every vault the server lists for this
   * account, pulled up to its head, so what is missing from the device does not exist for this
   * user (SYNC_SPEC R70). Unlike syncNow it does not wait for uploads.
   */
  async syncAndConfirm(): Promise<boolean> {
    if (!this.ctx) return false;
    this.requestRun();
    // A request during a run makes that same run loop once more, so this covers a fresh cycle.
    if (this.running) await this.running;
    return this.isLastCycleOk && this.ctx !== null;
  }

  /** Resolves when no cycle and no upload is running. */
  async idle(): Promise<void> {
    for (;;) {
      if (this.running) await this.running;
      else if (this.uploads?.isBusy) await this.uploads.idle();
      else return;
    }
  }

  async dismissRejection(opId: string): Promise<void> {
    await dismissRejectedOperation(this.context, opId);
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      const ctx = this.ctx;
      if (!ctx) return;
      this.status.set({ isActive: true });
      try {
        await this.cycle(ctx);
        this.isLastCycleOk = true;
        this.failures = 0;
        this.status.set({ isActive: false, hasError: false, hasSynced: true, isReachable: true });
        // Vaults kept offline fetch what the cycle brought (SYNC_SPEC R15).
        void refreshOfflineVaults(ctx).catch((error: unknown) => ctx.log('Offline copies not refreshed', error));
        this.schedule(this.isRealtimeOpen ? Math.max(this.pollIntervalMs, POLL_INTERVAL_WITH_SOCKET_MS) : this.pollIntervalMs);
      } catch (error) {
        this.failures += 1;
        this.isLastCycleOk = false;
        ctx.log('Sync cycle failed; retrying', error);
        this.status.set({
          isActive: false,
          hasError: !isRetryable(error) || this.failures > 2,
          // The server cannot be reached: the chrome says offline, and work waits in the outbox.
          isReachable: !(error instanceof NetworkError),
        });
        const backoff = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.min(this.failures, 6)) * (0.5 + Math.random() / 2);
        this.schedule(this.pollIntervalMs ? Math.min(backoff, MAX_BACKOFF_MS) : 0, true);
        return;
      }
    } while (this.again && this.ctx);
  }

  private async cycle(ctx: SyncContext): Promise<void> {
    const accepted = new Set<string>();
    for (;;) {
      const outcome = await pushOutbox(ctx);
      for (const id of outcome.acceptedVaultIds) accepted.add(id);
      if (!outcome.hasMore) break;
    }
    const poked = new Set(this.pokedVaults);
    this.pokedVaults.clear();
    const before = { ...this.stats };
    const stats = await pullAll(ctx);
    // A vault poked or just pushed to may be ahead of what the list said a moment ago.
    for (const vaultId of new Set([...accepted, ...poked])) {
      if (!this.ctx) return;
      await pullVaultIfMember(ctx, vaultId, stats);
    }
    this.stats.applied = before.applied + stats.applied;
    this.stats.unverified = before.unverified + stats.unverified;
    if (!this.ctx) return;
    await refreshChangedMembers(ctx, stats);
    // R131: organisation airdrops are accepted by the device itself; a failure waits for the next cycle.
    if ((await acceptOrganisationAirdrops(ctx)) > 0) this.again = true;
    // R129: vaults created offline (or whose screen closed too soon) are shared with the organisation's admins.
    await shareQueuedVaults(ctx);
    // A member left a vault this user may rotate (R20): the content waiting for it goes next cycle.
    if (await rotateWhereNeeded(ctx)) this.again = true;
  }

  /** Next poll (or retry). Polls only while the page is visible; a visibility change resumes. */
  private schedule(delayMs: number, isRetry = false): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.ctx || (!delayMs && !isRetry) || !this.pollIntervalMs) return;
    this.timerDueAt = Date.now() + delayMs;
    this.isTimerRetry = isRetry;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (isRetry || isVisible()) this.requestRun();
    }, delayMs);
  }

  private listen(): void {
    if (typeof window === 'undefined') return;
    const onOnline = () => {
      this.status.set({});
      this.failures = 0;
      this.requestRun();
      this.uploads?.kick();
    };
    const onOffline = () => this.status.set({});
    const onVisible = () => {
      if (isVisible()) this.requestRun();
    };
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    document.addEventListener('visibilitychange', onVisible);
    this.cleanups.push(
      () => window.removeEventListener('online', onOnline),
      () => window.removeEventListener('offline', onOffline),
      () => document.removeEventListener('visibilitychange', onVisible),
    );
  }
}

function isVisible(): boolean {
  return typeof document === 'undefined' || document.visibilityState !== 'hidden';
}

export type { SyncStatus };
