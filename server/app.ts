/**
 * `buildApp(deps)`: the whole HTTP and WebSocket server without `listen`, so tests drive it with
 * `app.inject` and main.ts decides where it listens.
 */
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { ApiError } from '../src/protocol/errors';
import { WS_MAX_MESSAGE_BYTES } from '../src/protocol/ws';
import fs from 'node:fs';
import path from 'node:path';
import type { BlobStore } from './blobs/BlobStore';
import { createBlobStore } from './blobs/createBlobStore';
import type { Config } from './config';
import type { Database } from './db/Database';
import { ArweaveRelay, type RelayOptions } from './arweave/ArweaveRelay';
import { arweaveConfigFor } from './arweave/arweaveConfig';
import { PostgresRelayLeadership, soleLeadership } from './arweave/RelayLeadership';
import { arweaveFor, type JWKInterface } from './arweave/arweaveClient';
import { StorageTransactionService } from './arweave/StorageTransactionService';
import { VaultHistoryService } from './arweave/VaultHistoryService';
import { NftChainService } from './arweave/nftItems';
import { readWallet } from './arweave/wallet';
import { registerArweaveRoutes } from './http/arweaveRoutes';
import { registerAccountRoutes } from './http/accountRoutes';
import { registerAuthRoutes } from './http/authRoutes';
import { registerBlobRoutes } from './http/blobRoutes';
import { isApiPath, registerClientFiles } from './http/clientFiles';
import { registerErrorHandler, toApiError } from './http/errorHandler';
import { registerNotificationRoutes } from './http/notificationRoutes';
import { createOriginCheck } from './http/originCheck';
import { DatabaseRateCounters, rateLimitStoreOver } from './http/rateCounters';
import { PUBLIC_RATE_FACTOR, registerPublicRoutes } from './http/publicRoutes';
import { registerMemberRoutes } from './http/memberRoutes';
import { createReadiness, gatewayCheck, registerMonitoringRoutes, type ReadyCheck } from './http/monitoringRoutes';
import { Metrics } from './metrics/Metrics';
import { registerRecoveryRoutes } from './http/recoveryRoutes';
import { createRouteDefiner, type RouteMeta } from './http/route';
import { registerSessionRoutes } from './http/sessionRoutes';
import { registerSystemRoutes } from './http/systemRoutes';
import { registerVaultRoutes } from './http/vaultRoutes';
import { registerWalletRoutes } from './http/walletRoutes';
import type { MailPort } from './mail/MailPort';
import type { SmsPort } from './sms/SmsPort';
import { type Clock, systemClock } from './services/Clock';
import { createServices, type Services } from './services/createServices';
import { LocalPokeBus, type PokeBus } from './realtime/PokeBus';
import { VaultPokeFanout } from './realtime/VaultPokeFanout';
import { LocalNotificationBus, type NotificationBus } from './realtime/NotificationBus';
import { LocalLedgerBus, type LedgerBus } from './realtime/LedgerBus';
import { registerTokenRoutes } from './http/tokenRoutes';
import { registerOrganisationRoutes } from './http/organisationRoutes';
import { registerPlanRoutes } from './http/planRoutes';
import { registerReferralRoutes } from './http/referralRoutes';
import { registerWebhookRoutes } from './http/webhookRoutes';
import { LocalWebhookLogBus, type WebhookLogBus } from './realtime/WebhookLogBus';
import { type DispatcherOptions, WebhookDispatcher } from './webhooks/WebhookDispatcher';
import { allowedAddressList } from './webhooks/webhookTarget';
import { registerApiKeySettingsRoutes } from './http/apiKeySettingsRoutes';
import { registerOpenApiRoute } from './http/openApiRoutes';
import { LocalStorageTransactionBus, type StorageTransactionBus } from './realtime/StorageTransactionBus';
import { LocalSocketHub, type SocketHub } from './ws/SocketHub';
import { registerSocketRoute } from './ws/registerSocketRoute';

export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  mailer: MailPort;
  /** The SMS provider; null: none configured, SMS two-factor is not offered (issue 20). */
  sms: SmsPort | null;
  clock?: Clock;
  /** Overrides `config.staticDir`. */
  staticDir?: string;
  /** Where chunk bytes go; default: the settings' choice (S3_BUCKET, else files under DATA_DIR/blobs). */
  blobs?: BlobStore;
  /** Carries vault pokes between processes; default one process only. The app closes it. */
  pokeBus?: PokeBus;
  /** Notifications to sockets across processes (PostgreSQL LISTEN/NOTIFY); local by default. */
  notificationBus?: NotificationBus;
  /** Storage-transaction changes to the uploader's sockets across processes; local by default. */
  storageTransactionBus?: StorageTransactionBus;
  /** $U balance changes to the affected users' sockets across processes (SYNC_SPEC R109); local by default. */
  ledgerBus?: LedgerBus;
  /**
   * Permanent storage (SYNC_SPEC R34-R37): the gateway and relay wallet. Default: ARWEAVE_GATEWAY
   * with the wallet at ARWEAVE_WALLET; neither: no relay (rows wait SCHEDULED).
   */
  arweave?: { gatewayUrl: string; wallet: JWKInterface; relayOptions?: RelayOptions; startRelay?: boolean };
  /** Webhook log entries to the user's sockets across processes (issue 24); local by default. */
  webhookLogBus?: WebhookLogBus;
  /** The webhook dispatcher's timings and trusted CAs (tests); `start: false` leaves it to `app.webhookDispatcher.runOnce()`. */
  webhooks?: DispatcherOptions & { start?: boolean };
}

/** A registered route, recorded for tests and documentation. */
export interface RouteInfo {
  method: string;
  url: string;
  meta: RouteMeta | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, in order (HEAD routes Fastify adds for GET included). */
    routeList: RouteInfo[];
    services: Services;
    socketHub: SocketHub;
    /** The permanent relay, or null when no gateway is configured. */
    arweaveRelay: ArweaveRelay | null;
    /** Sends queued webhook deliveries (issue 24). */
    webhookDispatcher: WebhookDispatcher;
  }
}

const DEFAULT_BODY_LIMIT = 64 * 1024;

/** Paths that keep working in maintenance mode, so the client can show why and report problems. */
const MAINTENANCE_OPEN = new Set(['/api/health', '/api/health/ready', '/api/metrics', '/api/config', '/api/support']);

export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  // 'wasm-unsafe-eval' lets the crypto worker compile libsodium and OPAQUE; no inline script.
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  // Decrypted previews (PDF in a frame, audio, video) are blob: URLs made on the device.
  'frame-src': ["'self'", 'blob:'],
  'media-src': ["'self'", 'blob:'],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * The policy for a server at `publicUrl`: an organisation admin's page also reaches its
 * organisations' subdomains, `{scheme}//*.{baseDomain}{:port}`, to see whether a new one answers
 * yet (SYNC_SPEC R125). Nothing else is added.
 */
export function contentSecurityPolicy(publicUrl: string, baseDomain: string): typeof CONTENT_SECURITY_POLICY {
  const url = new URL(publicUrl);
  const subdomains = `${url.protocol}//*.${baseDomain}${url.port ? `:${url.port}` : ''}`;
  return { ...CONTENT_SECURITY_POLICY, 'connect-src': [...CONTENT_SECURITY_POLICY['connect-src'], subdomains] };
}

/** Builds the server: plugins, hooks, every route. Resolves once the database and OPAQUE are ready. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const blobStore = deps.blobs ?? createBlobStore(config);
  // Before anything starts: a bucket that is missing or refuses the credentials stops the server
  // at start, not at the first upload.
  await blobStore.check();
  const pokeBus: PokeBus = deps.pokeBus ?? new LocalPokeBus();
  const notificationBus: NotificationBus = deps.notificationBus ?? new LocalNotificationBus();
  const storageTransactionBus = deps.storageTransactionBus ?? new LocalStorageTransactionBus();
  const ledgerBus: LedgerBus = deps.ledgerBus ?? new LocalLedgerBus();
  const webhookLogBus: WebhookLogBus = deps.webhookLogBus ?? new LocalWebhookLogBus();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      serializers: {
        // The default request serializer logs the URL: /api/ws?token= carries a session token and
        // an airdrop link /login?wallet= the invitee's wallet (served by the client files route).
        req: (req: FastifyRequest) => ({ method: req.method, url: redactSecrets(req.url), remoteAddress: req.ip }),
      },
    },
    bodyLimit: DEFAULT_BODY_LIMIT,
    // TRUST_PROXY: behind a reverse proxy, req.ip (the per-IP rate limits' key) is the client's.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Request ids are for logs only; never trust a client-sent one.
    requestIdHeader: false,
    // Router-level rejections (a malformed %-escape, an over-long path parameter) bypass the error
    // handler; answer them in the same shape.
    frameworkErrors: sendFrameworkError,
  });

  // Fastify parses text/plain by default; the API speaks JSON only, so anything else is 415.
  app.removeContentTypeParser('text/plain');

  app.decorate('routeList', []);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      app.routeList.push({ method, url: route.url, meta: route.config?.cairn });
    }
  });

  const services = await createServices({
    db,
    clock,
    mailer: deps.mailer,
    sms: deps.sms,
    publicUrl: config.publicUrl,
    baseDomain: config.baseDomain,
    log: app.log,
    blobStore,
    plans: config.plans,
    storageAllowances: config.storageAllowances,
    pokes: pokeBus,
    notificationBus,
    memberLimit: config.memberLimit,
    signups: { allowed: config.signupsAllowed, emailDomains: config.signupEmailDomains },
    token: { rewardPerMiB: config.tokenRewardPerMiB, bus: ledgerBus, priceUrl: config.tokenPriceUrl, priceLog: app.log },
    invoiceIssuer: config.invoiceIssuer,
    webhookAllowedAddresses: config.webhookAllowedAddresses,
    apiKeys: config.apiKeys,
  });
  const hub = new LocalSocketHub(clock);
  const metrics = new Metrics({ db, openSockets: () => hub.connectionCount() });
  if (config.metricsToken !== null) metrics.collectProcessMetrics();
  const fanout = new VaultPokeFanout(pokeBus, db, hub, app.log);
  const stopNotifications = notificationBus.subscribe(({ userId, notification }) => hub.sendToUser(userId, { type: 'notification', notification }));
  const stopStorageTransactions = storageTransactionBus.subscribe(({ userId, transaction }) => hub.sendToUser(userId, { type: 'storageTransaction', transaction }));
  const stopBalances = ledgerBus.subscribe(({ userId, balance, headSeq }) => hub.sendToUser(userId, { type: 'tokenBalance', balance, headSeq }));
  app.decorate('services', services);
  app.decorate('socketHub', hub);
  const stopWebhookLogs = webhookLogBus.subscribe(({ userId, logId }) => {
    services.webhooks
      .logEntry(userId, logId)
      .then((log) => log && hub.sendToUser(userId, { type: 'webhookLog', log }))
      .catch((err: unknown) => app.log.warn({ err }, 'webhook log entry not pushed'));
  });
  const webhookDispatcher = new WebhookDispatcher({
    db,
    clock,
    log: app.log,
    allowed: allowedAddressList(config.webhookAllowedAddresses),
    onLogged: (userId, logId) => webhookLogBus.publish({ userId, logId }),
    ...(deps.webhooks ? { options: deps.webhooks } : {}),
  });
  const stopWebhookWakes = services.webhooks.onQueued(() => webhookDispatcher.wake());
  app.decorate('webhookDispatcher', webhookDispatcher);

  const arweave = deps.arweave ?? arweaveFromConfig(config);
  const arweaveClient = arweave ? arweaveFor(arweave.gatewayUrl) : null;
  // CAIRN_RELAY=0: this process serves the gateway's settings and imports but never relays.
  const relay =
    arweave && arweaveClient && config.relay
      ? new ArweaveRelay({
          db,
          blobStore,
          arweave: arweaveClient,
          wallet: arweave.wallet,
          clock,
          log: app.log,
          // Through the bus: the uploader's sockets may be open on another process (issue 20).
          onChange: (transaction, uploaderUserId) => {
            storageTransactionBus.publish({ userId: uploaderUserId, transaction });
            void services.webhooks.storageTransactionChanged(transaction, uploaderUserId);
          },
          onBundlePosted: () => metrics.bundlesPosted.inc(),
          // R107: a committed upload's reward is written in the same transaction as its status.
          rewards: services.ledger,
          // Several processes on one PostgreSQL: one relays at a time (docs/decisions.md).
          leadership: config.databaseUrl ? new PostgresRelayLeadership(config.databaseUrl, app.log) : soleLeadership,
          ...(arweave.relayOptions ? { options: arweave.relayOptions } : {}),
        })
      : null;
  app.decorate('arweaveRelay', relay);
  // An accepted operation may have scheduled a permanent version (SYNC_SPEC R34): bundle it now.
  const stopRelayWakes = relay ? pokeBus.subscribe(() => relay.wake()) : () => undefined;
  const arweaveConfig = arweave && arweaveClient ? arweaveConfigFor(arweave.gatewayUrl, await arweaveClient.wallets.jwkToAddress(arweave.wallet)) : null;

  registerErrorHandler(app);
  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config.publicUrl, config.baseDomain) },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    // A self-hosted install may run on plain http on a LAN: do not force https here.
    strictTransportSecurity: config.publicUrl.startsWith('https:'),
  });
  // Several processes on one PostgreSQL count every limit together (issue 20); SQLite is one process.
  const rateCounters = config.databaseUrl ? new DatabaseRateCounters(db) : null;
  await app.register(fastifyRateLimit, {
    global: false,
    ...(rateCounters ? { store: rateLimitStoreOver(rateCounters) } : {}),
    errorResponseBuilder: (_req, context) =>
      new ApiError('RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`),
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: WS_MAX_MESSAGE_BYTES } });

  const checkOrigin = createOriginCheck(config.publicUrl);
  app.addHook('onRequest', async (req) => {
    // A request through an organisation's subdomain proves the subdomain answers (R125).
    const subdomain = services.organisations.subdomainOfHost(req.headers.host);
    if (subdomain) await services.organisations.subdomainAnswered(subdomain).catch((err: unknown) => req.log.error({ err }, 'marking a subdomain answered failed'));
    if (!isApiPath(req.url)) return;
    checkOrigin(req);
    const pathname = req.url.split('?')[0] ?? '';
    if (config.maintenance && !MAINTENANCE_OPEN.has(pathname)) {
      throw new ApiError('MAINTENANCE', "We'll be back soon! Cairn is currently down for scheduled maintenance.");
    }
    if (config.readOnly && req.routeOptions.config.cairn?.blockedWhenReadOnly) {
      throw new ApiError('READ_ONLY', 'Cairn is read-only for now. Please try again later.');
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    // Answers carry session tokens and account data: never keep them in a shared or disk cache.
    if (isApiPath(req.url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  const route = createRouteDefiner(app, services, { authRateLimit: config.authRateLimit });
  const secureCookies = config.publicUrl.startsWith('https:');
  registerSystemRoutes(route, services, config);
  registerAuthRoutes(route, services, { secureCookies });
  registerWalletRoutes(route, services, { secureCookies });
  registerRecoveryRoutes(route, services, { secureCookies });
  registerAccountRoutes(route, services);
  registerSessionRoutes(route, services);
  registerVaultRoutes(route, services, () => clock.now(), metrics, rateCounters ?? undefined);
  registerMemberRoutes(route, services);
  registerNotificationRoutes(route, services);
  registerArweaveRoutes(route, { transactions: new StorageTransactionService(db), history: new VaultHistoryService(db, clock), nfts: new NftChainService(db, clock), config: arweaveConfig, gatewayUrl: arweave?.gatewayUrl ?? null, ...(rateCounters ? { rateCounters } : {}) });
  registerBlobRoutes(app, route, services, { authRateLimit: config.authRateLimit, metrics });
  registerTokenRoutes(route, services);
  registerPlanRoutes(route, services);
  registerOrganisationRoutes(route, services);
  registerReferralRoutes(route, services);
  registerWebhookRoutes(route, services);
  registerApiKeySettingsRoutes(route, services);
  registerOpenApiRoute(app, route, config.publicUrl);
  const readyChecks: Record<string, ReadyCheck> = {
    database: async () => void (await sql`select 1`.execute(db)),
    blobs: () => blobStore.check(),
  };
  // The LISTEN connections exist only on PostgreSQL (several processes); the local buses need none.
  if (pokeBus.check || notificationBus.check) {
    readyChecks.listen = async () => void (await Promise.all([pokeBus.check?.(), notificationBus.check?.()]));
  }
  if (arweave) readyChecks.gateway = gatewayCheck(arweave.gatewayUrl);
  registerMonitoringRoutes(app, route, { readiness: createReadiness(readyChecks, app.log), metrics, metricsToken: config.metricsToken });
  registerPublicRoutes(createRouteDefiner(app, services, { authRateLimit: config.authRateLimit * PUBLIC_RATE_FACTOR }), services);
  registerSocketRoute(app, hub, services);
  await registerClientFiles(app, deps.staticDir ?? config.staticDir);

  app.addHook('onClose', async () => {
    stopRelayWakes();
    await relay?.stop();
    stopWebhookWakes();
    await webhookDispatcher.stop();
    stopWebhookLogs();
    fanout.stop();
    stopNotifications();
    stopStorageTransactions();
    stopBalances();
    hub.closeAll();
    await pokeBus.close();
    await notificationBus.close();
    await storageTransactionBus.close();
    await ledgerBus.close();
    await webhookLogBus.close();
  });
  await app.ready();
  if (relay && arweave?.startRelay !== false) relay.start();
  if (deps.webhooks?.start !== false) webhookDispatcher.start();
  return app;
}

/** ARWEAVE_GATEWAY with the JWK at ARWEAVE_WALLET (or DATA_DIR/arweave-wallet.json), if both exist. */
function arweaveFromConfig(config: Config): AppDeps['arweave'] {
  if (!config.arweaveGateway) return undefined;
  const walletFile = config.arweaveWallet ?? path.join(config.dataDir, 'arweave-wallet.json');
  if (!fs.existsSync(walletFile)) return undefined;
  return { gatewayUrl: config.arweaveGateway, wallet: readWallet(walletFile), relayOptions: { historySettleMs: config.historySettleMs, backoffMaxMs: config.relayRetryMaxMs } };
}

/** A hop count as Fastify's trust function (its types take no number): trust the `hops` nearest hops. */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

function sendFrameworkError(error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const { apiError } = toApiError(error);
  void reply.status(apiError.status).type('application/json; charset=utf-8').send(apiError.toBody());
}

/** The URL with the values of its secret query parameters (`token`, `wallet`) replaced. */
export function redactSecrets(url: string): string {
  return url.replace(/([?&](?:token|wallet)=)[^&#]*/gi, '$1***');
}
