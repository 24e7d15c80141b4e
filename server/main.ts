/**
 * Entry point: `npx tsx server/main.ts` (or `npm run server`). Reads the environment, opens and
 * migrates the database, and listens on 0.0.0.0:PORT.
 */
import { type AppDeps, buildApp } from './app';
import { type EmbeddedGateway, startEmbeddedGateway } from './arweave/embeddedArlocal';
import { readWallet } from './arweave/wallet';
import { ConfigError, loadConfig } from './config';
import { migrateToLatest } from './db/migrate';
import { checkConnection, openDatabase } from './db/openDatabase';
import { createMailer } from './mail/createMailer';
import { PostgresNotificationBus } from './realtime/NotificationBus';
import { PostgresLedgerBus } from './realtime/LedgerBus';
import { PostgresPokeBus } from './realtime/PostgresPokeBus';
import { PostgresStorageTransactionBus } from './realtime/StorageTransactionBus';
import { PostgresWebhookLogBus } from './realtime/WebhookLogBus';
import { preparePrivateDataDir, PRIVATE_UMASK } from './privateFiles';
import { offsetClock } from './services/Clock';
import { createSms } from './sms/createSms';
import { createLogger } from './logger';
import { warnAboutSettings } from './startWarnings';

/** The reason of a failed step, for the operator: one line, no stack. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<void> {
  // Until the app exists (and after it, for what is not a request) the server logs through its
  // own pino logger, in the same JSON lines as app.log. pino writes stdout synchronously, so a
  // line logged just before process.exit is not lost.
  const log = createLogger();
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      log.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
  log.level = config.logLevel;

  // Before anything is written: DATA_DIR and all the process creates are its user's only.
  process.umask(PRIVATE_UMASK);
  try {
    preparePrivateDataDir(config.dataDir);
  } catch (error) {
    log.fatal({ dataDir: config.dataDir, reason: reasonOf(error) }, `Cannot prepare DATA_DIR (${config.dataDir}): ${reasonOf(error)}`);
    process.exit(1);
  }

  const { db } = openDatabase({ ...config, log });
  try {
    if (config.databaseUrl) await checkConnection(db, config.databaseUrl);
    await migrateToLatest(db);
  } catch (error) {
    log.fatal({ reason: reasonOf(error) }, reasonOf(error));
    await db.destroy().catch(() => undefined);
    process.exit(1);
  }

  const mailer = createMailer(config);
  // Several processes may share one PostgreSQL: pokes travel between them by LISTEN/NOTIFY.
  let pokeBus;
  let notificationBus;
  let storageTransactionBus;
  let ledgerBus;
  let webhookLogBus;
  try {
    pokeBus = config.databaseUrl ? await PostgresPokeBus.connect(config.databaseUrl, log) : undefined;
    notificationBus = config.databaseUrl ? await PostgresNotificationBus.connect(config.databaseUrl, log) : undefined;
    storageTransactionBus = config.databaseUrl ? await PostgresStorageTransactionBus.connect(config.databaseUrl, log) : undefined;
    ledgerBus = config.databaseUrl ? await PostgresLedgerBus.connect(config.databaseUrl, log) : undefined;
    webhookLogBus = config.databaseUrl ? await PostgresWebhookLogBus.connect(config.databaseUrl, log) : undefined;
  } catch (error) {
    log.fatal({ reason: reasonOf(error) }, `Cannot listen for vault pokes on DATABASE_URL: ${reasonOf(error)}`);
    await db.destroy().catch(() => undefined);
    process.exit(1);
  }
  // Permanent storage: ARWEAVE_GATEWAY with the wallet at ARWEAVE_WALLET, or an embedded arlocal.
  let embedded: EmbeddedGateway | null = null;
  let arweave: AppDeps['arweave'];
  try {
    if (config.arweaveGateway) {
      if (!config.arweaveWallet) throw new Error('ARWEAVE_GATEWAY needs ARWEAVE_WALLET (the path to the relay wallet JWK)');
      arweave = { gatewayUrl: config.arweaveGateway, wallet: readWallet(config.arweaveWallet), relayOptions: { historySettleMs: config.historySettleMs, backoffMaxMs: config.relayRetryMaxMs } };
    } else {
      embedded = await startEmbeddedGateway({
        dataDir: config.dataDir,
        port: config.arlocalPort,
        mineMs: config.arlocalMineMs,
        walletFile: config.arweaveWallet,
      });
      arweave = { gatewayUrl: embedded.gatewayUrl, wallet: embedded.wallet, relayOptions: { historySettleMs: config.historySettleMs, backoffMaxMs: config.relayRetryMaxMs } };
      log.info({ gatewayUrl: embedded.gatewayUrl }, `Embedded arlocal gateway on ${embedded.gatewayUrl}`);
    }
  } catch (error) {
    log.fatal({ reason: reasonOf(error) }, `Cannot set up permanent storage: ${reasonOf(error)}`);
    await db.destroy().catch(() => undefined);
    process.exit(1);
  }
  let app;
  try {
    app = await buildApp({
      arweave,
      config,
      db,
      mailer,
      // SMS_PROVIDER (Twilio or the operator's webhook), SMS_TO_FILES (tests), or none: no SMS two-factor.
      sms: createSms(config),
      clock: offsetClock(config.testClockOffsetMs),
      ...(pokeBus ? { pokeBus } : {}),
      ...(notificationBus ? { notificationBus } : {}),
      ...(storageTransactionBus ? { storageTransactionBus } : {}),
      ...(ledgerBus ? { ledgerBus } : {}),
      ...(webhookLogBus ? { webhookLogBus } : {}),
    });
  } catch (error) {
    // The blob store's readiness check (an S3 bucket missing, refused credentials) fails here.
    log.fatal({ reason: reasonOf(error) }, `Cannot start: ${reasonOf(error)}`);
    await embedded?.stop().catch(() => undefined);
    await db.destroy().catch(() => undefined);
    process.exit(1);
  }
  warnAboutSettings(config, app.log);
  // Loud, so a test setting that leaked into a real deployment is seen at once.
  if (config.testClockOffsetMs) app.log.warn({ offsetMs: config.testClockOffsetMs }, 'CAIRN_TEST_CLOCK_OFFSET_MS is set: the server clock runs ahead (tests only)');

  let closing = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      // close() stops accepting connections and waits for in-flight requests.
      await app.close();
      await embedded?.stop();
      mailer.close?.();
      await db.destroy();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  // `on`, not `once`: a signal to the process group arrives twice (directly and forwarded by
  // scripts/start.mjs), and the second must not cut the drain short.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ host: '0.0.0.0', port: config.port });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log.fatal({ port: config.port, reason }, `Cannot listen on port ${config.port}: ${reason}`);
    await db.destroy().catch(() => undefined);
    process.exit(1);
  }
  app.log.info({ port: config.port }, `Cairn is listening on http://localhost:${config.port}`);
}

void main();
