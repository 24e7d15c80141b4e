/**
 * Liveness and readiness (docs/operations.md, Health and metrics): /api/health answers while the
 * process runs; /api/health/ready answers 503 naming each dependency that does not answer.
 */
import { expect, it } from 'vitest';
import { freePort } from '../arweave/embeddedArlocal';
import { MemoryBlobStore } from '../blobs/MemoryBlobStore';
import { PostgresNotificationBus } from '../realtime/NotificationBus';
import { PostgresPokeBus } from '../realtime/PostgresPokeBus';
import { ApiClient } from '../testing/ApiClient';
import { suiteGateway } from '../testing/arlocal';
import { describeEachDatabase, type BuildOptions, type TestEnv } from '../testing/databases';

/** A blob store that works at start and then loses its backend (a bucket deleted, a disk gone). */
class FailingBlobStore extends MemoryBlobStore {
  failing = false;
  override async check(): Promise<void> {
    if (this.failing) throw new Error('S3 bucket secret-bucket-name refused the credentials AKIASECRET');
  }
}

const quiet = { warn: () => undefined };

describeEachDatabase('readiness', (env) => {
  const suite = suiteGateway('cairn-ready-');

  /** An app as main.ts builds it: a gateway, and on PostgreSQL the LISTEN buses. */
  async function build(env: TestEnv, options: BuildOptions & { gatewayUrl?: string } = {}) {
    const url = env.databaseUrl;
    const pokeBus = url ? await PostgresPokeBus.connect(url, quiet) : undefined;
    const notificationBus = url ? await PostgresNotificationBus.connect(url, quiet) : undefined;
    const app = await env.buildApp({
      ...options,
      ...(pokeBus ? { pokeBus } : {}),
      ...(notificationBus ? { notificationBus } : {}),
      arweave: { gatewayUrl: options.gatewayUrl ?? suite.gateway.url, wallet: suite.wallet, startRelay: false },
    });
    return { api: new ApiClient(app), app, pokeBus };
  }

  it('is ready when the database, the LISTEN connection, the blob store and the gateway all answer', async () => {
    const { api } = await build(env);
    const ready = await api.get('/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: {
        database: { ok: true },
        blobs: { ok: true },
        gateway: { ok: true },
        ...(env.kind === 'postgres' ? { listen: { ok: true } } : {}),
      },
    });
    // Liveness keeps its answer.
    expect((await api.get('/api/health')).body).toEqual({ status: 'ok' });
  });

  it('answers 503 naming the gateway when it is unreachable, while /api/health stays 200', async () => {
    const closedPort = await freePort();
    const { api } = await build(env, { gatewayUrl: `http://127.0.0.1:${closedPort}` });
    const ready = await api.get('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      status: 'not_ready',
      checks: { database: { ok: true }, blobs: { ok: true }, gateway: { ok: false, reason: 'failed (ECONNREFUSED)' } },
    });
    expect((await api.get('/api/health')).status).toBe(200);
  });

  it('answers 503 naming the blob store when its check fails, with a short reason and no secret', async () => {
    const blobs = new FailingBlobStore();
    const { api } = await build(env, { blobs });
    expect((await api.get('/api/health/ready')).status).toBe(200);
    blobs.failing = true;
    const ready = await api.get('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'not_ready', checks: { blobs: { ok: false, reason: 'failed' }, database: { ok: true }, gateway: { ok: true } } });
    expect(ready.raw).not.toMatch(/secret|AKIA|stack/i);
    blobs.failing = false;
    expect((await api.get('/api/health/ready')).status).toBe(200);
  });

  it('stays open in maintenance mode, as liveness does, while the rest of the API answers 503', async () => {
    const { api } = await build(env, { config: { maintenance: true } });
    expect((await api.get('/api/health/ready')).status).toBe(200);
    expect((await api.get('/api/health')).status).toBe(200);
    expect((await api.get('/api/vaults')).status).toBe(503);
  });

  // Only PostgreSQL has LISTEN connections.
  if (env.kind === 'postgres') {
    it('answers 503 naming the LISTEN connection when it is gone (PostgreSQL)', async () => {
      const { api, pokeBus } = await build(env);
      await pokeBus!.close();
      const ready = await api.get('/api/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: 'not_ready', checks: { listen: { ok: false, reason: 'failed (NOT_LISTENING)' }, database: { ok: true } } });
    });
  }
});
