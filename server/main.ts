/**
 * Entry point: `npx tsx server/main.ts` (or `npm run server`). Reads the environment, opens and
 * migrates the database, and listens on 0.0.0.0:PORT.
 */
import path from 'node:path';
import { type AppDeps, buildApp } from './app';
import { type EmbeddedGateway, startEmbeddedGateway } from './arweave/embeddedArlocal';
import { readWallet } from './arweave/wallet';
import { ConfigError, loadConfig } from './config';
import { migrateToLatest } from './db/migrate';
import { checkConnection, openDatabase } from './db/openDatabase';
import { createMailer } from './mail/createMailer';
import { PostgresNotificationBus } from './realtime/NotificationBus';
import { PostgresPokeBus } from './realtime/PostgresPokeBus';
import { PostgresStorageTransactionBus } from './realtime/StorageTransactionBus';
import { preparePrivateDataDir, PRIVATE_UMASK } from './privateFiles';
import { offsetClock } from './services/Clock';
import { FileSms } from './sms/FileSms';
import { warnAboutSettings } from './startWarnings';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // Before anything is written: DATA_DIR and all the process creates are its user's only.
  process.umask(PRIVATE_UMASK);
  try {
    preparePrivateDataDir(config.dataDir);
  } catch (error) {
    console.error(`Cannot prepare DATA_DIR (${config.dataDir}): ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }

  const { db } = openDatabase(config);
  try {
    if (config.databaseUrl) await checkConnection(db, config.databaseUrl);
    await migrateToLatest(db);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    await db.destroy().catch(() => undefined);
    process.exit(1);
  }

  const mailer = createMailer(config);
  // Several processes may share one PostgreSQL: pokes travel between them by LISTEN/NOTIFY.
  let pokeBus;
  let notificationBus;
  let storageTransactionBus;
  try {
    const busLog = { warn: (detail: unknown, message?: string) => console.warn(message, detail) };
    pokeBus = config.databaseUrl ? await PostgresPokeBus.connect(config.databaseUrl, busLog) : undefined;
    notificationBus = config.databaseUrl ? await PostgresNotificationBus.connect(config.databaseUrl, busLog) : undefined;
    storageTransactionBus = config.databaseUrl ? await PostgresStorageTransactionBus.connect(config.databaseUrl, busLog) : undefined;
  } catch (error) {
    console.error(`Cannot listen for vault pokes on DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`);
    await db.destroy().catch(() => undefined);
    process.exit(1);
  }
  // Permanent storage: ARWEAVE_GATEWAY with the wallet at ARWEAVE_WALLET, or an embedded arlocal.
  let embedded: EmbeddedGateway | null = null;
  let arweave: AppDeps['arweave'];
  try {
    if (config.arweaveGateway) {
      if (!config.arweaveWallet) throw new Error('ARWEAVE_GATEWAY needs ARWEAVE_WALLET (the path to the relay wallet JWK)');
      arweave = { gatewayUrl: config.arweaveGateway, wallet: readWallet(config.arweaveWallet), relayOptions: { historySettleMs: config.historySettleMs } };
    } else {
      embedded = await startEmbeddedGateway({
        dataDir: config.dataDir,
        port: config.arlocalPort,
        mineMs: config.arlocalMineMs,
        walletFile: config.arweaveWallet,
      });
      arweave = { gatewayUrl: embedded.gatewayUrl, wallet: embedded.wallet, relayOptions: { historySettleMs: config.historySettleMs } };
      console.log(`Embedded arlocal gateway on ${embedded.gatewayUrl}`);
    }
  } catch (error) {
    console.error(`Cannot set up permanent storage: ${error instanceof Error ? error.message : String(error)}`);
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
      // No SMS provider adapter exists yet: SMS two-factor is offered only with SMS_TO_FILES (tests, development).
      sms: config.smsToFiles ? new FileSms(path.join(config.dataDir, 'sms')) : null,
      clock: offsetClock(config.testClockOffsetMs),
      ...(pokeBus ? { pokeBus } : {}),
      ...(notificationBus ? { notificationBus } : {}),
      ...(storageTransactionBus ? { storageTransactionBus } : {}),
    });
  } catch (error) {
    // The blob store's readiness check (an S3 bucket missing, refused credentials) fails here.
    console.error(`Cannot start: ${error instanceof Error ? error.message : String(error)}`);
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
      console.error(error instanceof Error ? error.message : String(error));
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
    console.error(`Cannot listen on port ${config.port}: ${reason}`);
    await db.destroy().catch(() => undefined);
    process.exit(1);
  }
  console.log(`Cairn is listening on http://localhost:${config.port}`);
}

void main();
