import pg from 'pg';
import { type PokeBus, type VaultPoke, parsePoke } from './PokeBus';

/** The PostgreSQL channel every Cairn process listens on. */
export const POKE_CHANNEL = 'cairn_vault_pokes';

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 15_000;

interface Logger {
  warn(object: unknown, message?: string): void;
}

/**
 * Several server processes on one PostgreSQL: pokes travel through LISTEN/NOTIFY. One dedicated
 * connection listens (re-established with backoff if it drops); NOTIFY goes through a small pool.
 * PostgreSQL delivers a notification to every listening session, this process's own included, so
 * local and remote sockets are reached by the same path.
 */
export class PostgresPokeBus implements PokeBus {
  private readonly listeners = new Set<(poke: VaultPoke) => void>();
  private readonly pool: pg.Pool;
  private listener: pg.Client | null = null;
  private closed = false;
  private failures = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;

  private constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: 2 });
    this.pool.on('error', (error) => this.log.warn({ err: error }, 'poke bus pool error'));
  }

  /** Connects the listening session; resolves once LISTEN is in place. */
  static async connect(url: string, log: Logger): Promise<PostgresPokeBus> {
    const bus = new PostgresPokeBus(url, log);
    await bus.listen();
    return bus;
  }

  publish(poke: VaultPoke): void {
    if (this.closed) return;
    this.pool.query('select pg_notify($1, $2)', [POKE_CHANNEL, JSON.stringify(poke)]).catch((error: unknown) => {
      this.log.warn({ err: error, vaultId: poke.vaultId }, 'poke not published');
    });
  }

  subscribe(listener: (poke: VaultPoke) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.listeners.clear();
    const client = this.listener;
    this.listener = null;
    await Promise.allSettled([client?.end(), this.pool.end()]);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel !== POKE_CHANNEL || !message.payload) return;
      const poke = parsePoke(message.payload);
      if (!poke) return;
      for (const listener of this.listeners) listener(poke);
    });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'poke listener lost its connection');
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    await client.connect();
    await client.query(`listen ${POKE_CHANNEL}`);
    this.listener = client;
    this.failures = 0;
  }

  /** Listens again after the connection dropped; pokes sent meanwhile are lost (clients poll). */
  private reconnect(dead: pg.Client): void {
    if (this.closed || this.listener !== dead || this.reconnectTimer) return;
    this.listener = null;
    dead.end().catch(() => undefined);
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** this.failures) * (0.5 + Math.random() / 2);
    this.failures += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.listen().catch((error: unknown) => {
        this.log.warn({ err: error }, 'poke listener could not reconnect');
        const placeholder = new pg.Client({ connectionString: this.url });
        this.listener = placeholder;
        this.reconnect(placeholder);
      });
    }, delay);
  }
}
