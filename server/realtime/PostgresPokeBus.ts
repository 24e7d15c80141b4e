import pg from 'pg';
import type { ChannelBus } from './ChannelBus';
import { type VaultPoke, parsePoke } from './PokeBus';

/** The PostgreSQL channel every Cairn process listens on. */
export const POKE_CHANNEL = 'cairn_vault_pokes';

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 15_000;

interface Logger {
  warn(object: unknown, message?: string): void;
}

/**
 * Several server processes on one PostgreSQL: messages travel through LISTEN/NOTIFY on one
 * channel. One dedicated connection listens (re-established with backoff if it drops); NOTIFY goes
 * through a small pool. PostgreSQL delivers a notification to every listening session, this
 * process's own included, so local and remote sockets are reached by the same path. Messages are
 * hints or re-readable state: one lost while the listener reconnects is never data lost.
 */
export class PostgresChannelBus<T> implements ChannelBus<T> {
  private readonly listeners = new Set<(message: T) => void>();
  private readonly pool: pg.Pool;
  private listener: pg.Client | null = null;
  private closed = false;
  private failures = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** The last NOTIFY of an ordered bus: the next waits for it. */
  private tail: Promise<void> = Promise.resolve();

  protected constructor(
    private readonly url: string,
    private readonly log: Logger,
    private readonly channel: string,
    private readonly parse: (text: string) => T | null,
    /** ordered: one NOTIFY at a time, so listeners hear messages in the order they were published. */
    private readonly options: { ordered?: boolean } = {},
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: 2 });
    this.pool.on('error', (error) => this.log.warn({ err: error, channel }, 'bus pool error'));
  }

  publish(message: T): void {
    if (this.closed) return;
    const notify = () =>
      this.pool.query('select pg_notify($1, $2)', [this.channel, JSON.stringify(message)]).then(
        () => undefined,
        (error: unknown) => {
          this.log.warn({ err: error, channel: this.channel }, 'message not published');
        },
      );
    // Two NOTIFYs on two pool connections may commit in either order; chained, they cannot.
    if (this.options.ordered) this.tail = this.tail.then(notify);
    else void notify();
  }

  subscribe(listener: (message: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Readiness: the listening session is connected and answers (GET /api/health/ready). */
  async check(): Promise<void> {
    const client = this.listener;
    if (!client) throw Object.assign(new Error(`Not listening on ${this.channel}`), { code: 'NOT_LISTENING' });
    await client.query('select 1');
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.listeners.clear();
    const client = this.listener;
    this.listener = null;
    await Promise.allSettled([client?.end(), this.pool.end()]);
  }

  /** Connects the listening session; resolves once LISTEN is in place. */
  protected async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel !== this.channel || !message.payload) return;
      const parsed = this.parse(message.payload);
      if (parsed === null) return;
      for (const listener of this.listeners) listener(parsed);
    });
    client.on('error', (error) => {
      this.log.warn({ err: error, channel: this.channel }, 'bus listener lost its connection');
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    await client.connect();
    await client.query(`listen ${this.channel}`);
    this.listener = client;
    this.failures = 0;
  }

  /** Listens again after the connection dropped; messages sent meanwhile are lost (clients poll). */
  private reconnect(dead: pg.Client): void {
    if (this.closed || this.listener !== dead || this.reconnectTimer) return;
    this.listener = null;
    dead.end().catch(() => undefined);
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** this.failures) * (0.5 + Math.random() / 2);
    this.failures += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.listen().catch((error: unknown) => {
        this.log.warn({ err: error, channel: this.channel }, 'bus listener could not reconnect');
        const placeholder = new pg.Client({ connectionString: this.url });
        this.listener = placeholder;
        this.reconnect(placeholder);
      });
    }, delay);
  }
}

/** Vault pokes between processes (docs/SYNC_SPEC.md R3-R4). */
export class PostgresPokeBus extends PostgresChannelBus<VaultPoke> {
  static async connect(url: string, log: Logger): Promise<PostgresPokeBus> {
    const bus = new PostgresPokeBus(url, log, POKE_CHANNEL, parsePoke);
    await bus.listen();
    return bus;
  }
}
