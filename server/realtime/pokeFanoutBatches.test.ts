/**
 * Pokes gathered in one turn are fanned out whatever their number (SYNC_SPEC R3): the membership
 * lookup binds its vault ids in bounded slices (server/db/inBatches.ts), so a burst over more
 * vaults than a statement may bind still reaches every member's socket.
 */
import { beforeAll, expect, it, vi } from 'vitest';
import type { ServerMessage } from '../../src/protocol/ws';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { newId, VaultActor } from '../testing/vaults';
import { LocalSocketHub } from '../ws/SocketHub';
import { LocalPokeBus } from './PokeBus';
import { VaultPokeFanout } from './VaultPokeFanout';

/** More vault ids than either database binds in one statement (SQLite 32,766, PostgreSQL 65,535). */
const VAULTS_IN_ONE_TURN = 70_000;

describeEachDatabase('poke fan-out of a large burst', (env) => {
  let owner: VaultActor;

  beforeAll(async () => {
    owner = await VaultActor.create(env, new ApiClient(await env.buildApp()));
  });

  it(`[R3] pokes of ${VAULTS_IN_ONE_TURN} vaults heard in one turn reach the members' sockets`, async () => {
    const vaultId = await owner.createVault();
    const bus = new LocalPokeBus();
    const hub = new LocalSocketHub();
    const warnings: unknown[] = [];
    const fanout = new VaultPokeFanout(bus, env.db, hub, { warn: (object) => warnings.push(object) });
    const received: ServerMessage[] = [];
    hub.open({ userId: owner.userId, send: (message) => received.push(message), close: () => undefined });
    try {
      for (let i = 0; i < VAULTS_IN_ONE_TURN; i += 1) bus.publish({ vaultId: newId(), seq: 1 });
      bus.publish({ vaultId, seq: 7 });
      await vi.waitFor(() => expect(received).toContainEqual({ type: 'poke', vaultId, seq: 7 }), { timeout: 20_000 });
      expect(warnings).toEqual([]);
    } finally {
      fanout.stop();
    }
  });
});
