/**
 * `npm start` with no ARWEAVE_GATEWAY (server/main.ts in its own process): an embedded arlocal,
 * a relay wallet kept in DATA_DIR with mode 600, blocks mined on a timer, so a permanent upload
 * reaches COMMITTED with nobody driving it. A second process on the same DATA_DIR shares the
 * gateway rather than opening its data twice.
 */
import fs from 'node:fs';
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
      const config = ArweaveConfig.parse((await api.get('/api/config/arweave')).body);
      expect((await fetch(`${config.gatewayUrl}/info`)).ok).toBe(true);
      expect(fs.statSync(TEST_ARWEAVE_WALLET).mode & 0o777).toBe(0o600);

      const owner = await VaultActor.create(env, api);
      const vaultId = await owner.createVault({ isCloud: false, isPublic: true });
      const version = await owner.upload(vaultId, makeFile(2_000, { isPublic: true }), { isPublic: true });
      expectAccepted(await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: clear('a.txt'), version }));

      const status = async () => StorageTransactionPage.parse((await api.get('/api/storage/transactions', { token: owner.token })).body).items[0]?.status;
      await expect.poll(status, { timeout: 30_000, interval: 200 }).toBe('COMMITTED');

      const second = await startServerProcess({ dataDir: env.dataDir, databaseUrl: env.databaseUrl });
      try {
        const shared = ArweaveConfig.parse((await new ApiClient(httpApp(second.url)).get('/api/config/arweave')).body);
        expect(shared.gatewayUrl).toBe(config.gatewayUrl);
      } finally {
        await second.stop();
      }
    } finally {
      await server.stop();
    }
    expect(fs.existsSync(path.join(env.dataDir, 'arlocal.lock'))).toBe(false);
  }, 90_000);
});
