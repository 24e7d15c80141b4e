/**
 * The arweave and arlocal packages are CommonJS: under ESM their default export is sometimes the
 * module object (../shared/TOOLCHAIN.md pitfall 5), so pick whichever has the constructor.
 */
import ArLocalModule from 'arlocal';
import ArweaveModule from 'arweave';
import type Arweave from 'arweave';
import type { JWKInterface } from 'arweave/node/lib/wallet';

export type { JWKInterface };
export type ArweaveClient = Arweave;

type ArweaveStatic = typeof Arweave;
const ArweaveCtor: ArweaveStatic = (ArweaveModule as unknown as { init?: unknown }).init
  ? ArweaveModule
  : (ArweaveModule as unknown as { default: ArweaveStatic }).default;

/** An arweave client for a gateway base URL such as https://arweave.net or http://localhost:1984. */
export function arweaveFor(gatewayUrl: string): ArweaveClient {
  const url = new URL(gatewayUrl);
  const protocol = url.protocol.replace(':', '');
  const port = url.port ? Number(url.port) : protocol === 'https' ? 443 : 80;
  return ArweaveCtor.init({ host: url.hostname, port, protocol, timeout: 30_000, logging: false });
}

export interface ArLocalInstance {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** arlocal's Koa app: `listen` is what start() calls, with the port only (every interface). */
  app: KoaLike;
}

/** The part of Koa that server/arweave/embeddedArlocal.ts uses to confine arlocal. */
export interface KoaLike {
  listen(...args: unknown[]): import('node:http').Server;
  use(middleware: (ctx: KoaContextLike, next: () => Promise<void>) => Promise<void>): unknown;
}
export interface KoaContextLike {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
}

type ArLocalCtor = new (port?: number, showLogs?: boolean, dbPath?: string, persist?: boolean) => ArLocalInstance;
const ArLocalClass: ArLocalCtor =
  (ArLocalModule as unknown as { default?: ArLocalCtor }).default ?? (ArLocalModule as unknown as ArLocalCtor);

/** An arlocal gateway on `port`, keeping its data in `dbPath` (its default is inside node_modules). */
export function newArLocal(port: number, dbPath: string): ArLocalInstance {
  // persist: arlocal otherwise deletes dbPath on stop.
  return new ArLocalClass(port, false, dbPath, true);
}
