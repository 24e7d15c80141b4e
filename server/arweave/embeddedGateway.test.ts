/**
 * `npm start` with no ARWEAVE_GATEWAY (server/main.ts in its own process): an embedded arlocal,
 * a relay wallet kept in DATA_DIR with mode 600, blocks mined on a timer, so a permanent upload
 * reaches COMMITTED with nobody driving it. A second process on the same DATA_DIR shares the
 * gateway rather than opening its data twice.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ArweaveConfig, StorageTransactionPage } from '../../src/protocol/arweave';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { httpApp } from '../testing/httpApp';
import { startServerProcess, TEST_ARWEAVE_WALLET } from '../testing/serverProcess';
import { clear, expectAccepted, makeFile, newId, VaultActor } from '../testing/vaults';

describeEachDatabase('embedded arlocal gateway (npm start)', (env) => {
  it('a permanent upload reaches COMMITTED by itself; the wallet is private; a second process shares the gateway', async () => {
    const server = await startServerProcess({ dataDir: env.dataDir, databaseUrl: env.databaseUrl, env: { ARLOCAL_MINE_MS: '200' } });
    try {
      const api = new ApiClient(httpApp(server.url));
      const gatewayUrl = lockedGatewayUrl(env.dataDir);
      expect((await fetch(`${gatewayUrl}/info`)).ok).toBe(true);
      expect(fs.statSync(TEST_ARWEAVE_WALLET).mode & 0o777).toBe(0o600);

      const owner = await VaultActor.create(env, api);
      const vaultId = await owner.createVault({ isCloud: false, isPublic: true });
      const version = await owner.upload(vaultId, makeFile(2_000, { isPublic: true }), { isPublic: true });
      expectAccepted(await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: clear('a.txt'), version }));

      const status = async () => StorageTransactionPage.parse((await api.get('/api/storage/transactions', { token: owner.token })).body).items[0]?.status;
      await expect.poll(status, { timeout: 30_000, interval: 200 }).toBe('COMMITTED');

      const second = await startServerProcess({ dataDir: env.dataDir, databaseUrl: env.databaseUrl });
      try {
        // The second process relays through the first one's gateway: its import route reads it.
        const itemId = StorageTransactionPage.parse((await api.get('/api/storage/transactions', { token: owner.token })).body).items[0]?.dataItemId;
        const imported = await new ApiClient(httpApp(second.url)).get(`/api/arweave/tx/${itemId}`, { token: owner.token });
        expect(imported.status).toBe(200);
        expect(lockedGatewayUrl(env.dataDir)).toBe(gatewayUrl);
      } finally {
        await second.stop();
      }
    } finally {
      await server.stop();
    }
    expect(fs.existsSync(path.join(env.dataDir, 'arlocal.lock'))).toBe(false);
  }, 90_000);

  it('[R54] the embedded arlocal is the server\'s alone: loopback only, never published, no wipe, no browser', async () => {
    const server = await startServerProcess({ dataDir: env.dataDir, databaseUrl: env.databaseUrl });
    try {
      const api = new ApiClient(httpApp(server.url));
      const gatewayUrl = lockedGatewayUrl(env.dataDir);
      const port = Number(new URL(gatewayUrl).port);
      // GET /config/arweave (no session) publishes neither the address nor the port.
      const config = await api.get('/api/config/arweave');
      expect(ArweaveConfig.parse(config.body)).toEqual({ gatewayUrl: null, txViewerUrl: null, contractViewerUrl: null });
      expect(config.raw).not.toContain(String(port));
      // Not reachable from the network: every address of this machine but loopback is refused.
      const outside = Object.values(os.networkInterfaces())
        .flat()
        .filter((a) => a !== undefined && !a.internal && !a.address.startsWith('fe80:'));
      for (const address of outside) {
        const host = address!.family === 'IPv6' ? `[${address!.address}]` : address!.address;
        await expect(fetch(`http://${host}:${port}/info`, { signal: AbortSignal.timeout(5_000) }), host).rejects.toThrow();
      }
      // On loopback: the wiping and debugging routes are refused, and so is anything a browser sends.
      for (const route of ['/reset', '/logs', '/mineWithFails']) expect((await fetch(`${gatewayUrl}${route}`)).status, route).toBe(403);
      expect((await fetch(`${gatewayUrl}/mine`, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
      expect((await fetch(`${gatewayUrl}/info`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
      expect((await fetch(`${gatewayUrl}/info`, { headers: { referer: 'https://evil.example/' } })).status).toBe(403);
      // The server's own requests still work.
      expect((await fetch(`${gatewayUrl}/info`)).ok).toBe(true);
    } finally {
      await server.stop();
    }
  }, 90_000);
});

/** The embedded gateway's address, as the lock file in DATA_DIR names it (only the server's processes read it). */
function lockedGatewayUrl(dataDir: string): string {
  return (JSON.parse(fs.readFileSync(path.join(dataDir, 'arlocal.lock'), 'utf8')) as { gatewayUrl: string }).gatewayUrl;
}
