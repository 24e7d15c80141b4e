/**
 * The client end of /api/ws (docs/SYNC_SPEC.md R3, R5): one socket per signed-in tab. The server
 * says hello, then sends "vault X is at seq N" pokes; the sync client pulls on each. The socket is
 * a hint channel only: a missed poke costs one poll interval, never data, because pulls go by
 * cursor. Reconnects back off exponentially with jitter; a keep-alive ping notices a dead link.
 */
import type { StorageTransaction } from '../protocol/arweave';
import type { WebhookLog } from '../protocol/developers';
import type { Notification } from '../protocol/members';
import { ServerMessage } from '../protocol/ws';

export type RealtimeState = 'connecting' | 'open' | 'closed';

/** The part of the browser WebSocket used here (tests pass a fake). */
export interface SocketLike {
  readonly readyState: number;
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: (() => void) | null;
  onerror: (() => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface RealtimeOptions {
  url: string;
  openSocket?: (url: string) => SocketLike;
  /** A vault moved on the server. */
  onPoke(vaultId: string, seq: number): void;
  /** A notification for this user was written or grew (docs/SYNC_SPEC.md R31). */
  onNotification?(notification: Notification): void;
  /** A storage transaction changed status (docs/SYNC_SPEC.md R38). */
  onStorageTransaction?(transaction: StorageTransaction): void;
  /** The user's $U balance after ledger entry `headSeq` (SYNC_SPEC R109). */
  onTokenBalance?(balance: string, headSeq: number): void;
  /** A delivery of the user's webhook was logged (issue 24). */
  onWebhookLog?(log: WebhookLog): void;
  /** The socket is (again) open: pokes sent while it was down are lost, so catch up now. */
  onOpen(): void;
  onState?(state: RealtimeState): void;
  /** Default: navigator.onLine. While offline no connection is attempted. */
  isOnline?: () => boolean;
  random?: () => number;
  log?: (message: string, detail?: unknown) => void;
}

export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;
export const PING_INTERVAL_MS = 25_000;
/** No answer this long after a ping: the link is dead even if the socket looks open. */
export const PING_TIMEOUT_MS = 10_000;

/** Delay before reconnect attempt `attempt` (0-based): exponential, capped, with full jitter in its upper half. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(attempt, 10));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** ws:// or wss:// for the page's origin. */
export function socketUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/ws`;
}

export class RealtimeConnection {
  private socket: SocketLike | null = null;
  private state: RealtimeState = 'closed';
  private attempts = 0;
  private stopped = true;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private deadTimer: ReturnType<typeof setTimeout> | null = null;
  private pingCount = 0;
  private readonly cleanups: (() => void)[] = [];

  constructor(private readonly options: RealtimeOptions) {}

  get currentState(): RealtimeState {
    return this.state;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.attempts = 0;
    if (typeof window !== 'undefined') {
      const onOnline = () => this.reconnectNow();
      const onOffline = () => this.socket?.close(4000, 'offline');
      window.addEventListener('online', onOnline);
      window.addEventListener('offline', onOffline);
      this.cleanups.push(
        () => window.removeEventListener('online', onOnline),
        () => window.removeEventListener('offline', onOffline),
      );
    }
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(1000, 'signed out');
    }
    this.setState('closed');
  }

  /** Connects at once (the browser came back online), skipping any backoff wait. */
  reconnectNow(): void {
    if (this.stopped || this.state !== 'closed') return;
    this.attempts = 0;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.connect();
  }

  private isOnline(): boolean {
    if (this.options.isOnline) return this.options.isOnline();
    return typeof navigator === 'undefined' || navigator.onLine !== false;
  }

  private connect(): void {
    if (this.stopped) return;
    if (!this.isOnline()) {
      // The 'online' event reconnects.
      this.setState('closed');
      return;
    }
    this.setState('connecting');
    let socket: SocketLike;
    try {
      socket = (this.options.openSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike))(this.options.url);
    } catch (error) {
      this.options.log?.('Could not open the realtime socket', error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.clearTimers();
      this.setState('closed');
      this.scheduleReconnect();
    };
    // An error is always followed by close; nothing to do here.
    socket.onerror = () => undefined;
  }

  private receive(data: unknown): void {
    this.armDeadTimer(false);
    if (typeof data !== 'string') return;
    let parsed: ServerMessage;
    try {
      const result = ServerMessage.safeParse(JSON.parse(data));
      if (!result.success) return;
      parsed = result.data;
    } catch {
      return;
    }
    switch (parsed.type) {
      case 'hello':
        this.attempts = 0;
        this.setState('open');
        this.startPinging();
        this.options.onOpen();
        break;
      case 'poke':
        this.options.onPoke(parsed.vaultId, parsed.seq);
        break;
      case 'notification':
        this.options.onNotification?.(parsed.notification);
        break;
      case 'storageTransaction':
        this.options.onStorageTransaction?.(parsed.transaction);
        break;
      case 'tokenBalance':
        this.options.onTokenBalance?.(parsed.balance, parsed.headSeq);
        break;
      case 'webhookLog':
        this.options.onWebhookLog?.(parsed.log);
        break;
      case 'pong':
        break;
      case 'error':
        this.options.log?.('The realtime server refused a message', parsed.error);
        break;
    }
  }

  private startPinging(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (!this.socket) return;
      this.pingCount += 1;
      try {
        this.socket.send(JSON.stringify({ type: 'ping', id: `p${this.pingCount}` }));
      } catch {
        /* closing; onclose reconnects */
      }
      this.armDeadTimer(true);
    }, PING_INTERVAL_MS);
  }

  /** After a ping, a silent link is closed (and so reconnected); any message disarms it. */
  private armDeadTimer(arm: boolean): void {
    if (this.deadTimer) clearTimeout(this.deadTimer);
    this.deadTimer = null;
    if (!arm) return;
    this.deadTimer = setTimeout(() => this.socket?.close(4001, 'no pong'), PING_TIMEOUT_MS);
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    const delay = reconnectDelay(this.attempts, this.options.random);
    this.attempts += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private clearTimers(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.deadTimer) clearTimeout(this.deadTimer);
    this.reconnectTimer = null;
    this.pingTimer = null;
    this.deadTimer = null;
  }

  private setState(state: RealtimeState): void {
    if (state === this.state) return;
    this.state = state;
    this.options.onState?.(state);
  }
}
