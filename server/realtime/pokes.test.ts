import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PushResponse } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase, describePostgres } from '../testing/databases';
import { startServerProcess } from '../testing/serverProcess';
import { invite } from '../testing/members';
import { clear, expectAccepted, membershipIdOf, newId, sealed, VaultActor } from '../testing/vaults';
import { connectSocket, type TestSocket } from '../testing/wsClient';
import { PostgresPokeBus } from './PostgresPokeBus';

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `ws://127.0.0.1:${address.port}/api/ws`;
}

describeEachDatabase('vault pokes (SYNC_SPEC R3)', (env) => {
  let app: FastifyInstance;
  let wsUrl: string;
  let owner: VaultActor;
  let stranger: VaultActor;
  beforeAll(async () => {
    // On PostgreSQL the app listens through LISTEN/NOTIFY as in production.
    const pokeBus = env.databaseUrl ? await PostgresPokeBus.connect(env.databaseUrl, console) : undefined;
    app = await env.buildApp(pokeBus ? { pokeBus } : {});
    const api = new ApiClient(app);
    owner = await VaultActor.create(env, api);
    stranger = await VaultActor.create(env, api);
    wsUrl = await listen(app);
  });
  afterAll(() => app.close());

  it('R3: an accepted operation pokes the sockets of the vault members, not of others', async () => {
    const vaultId = await owner.createVault();
    const strangersVault = await stranger.createVault();
    const ownerSockets = [connectSocket(`${wsUrl}?token=${owner.token}`), connectSocket(`${wsUrl}?token=${owner.token}`)];
    const strangerSocket = connectSocket(`${wsUrl}?token=${stranger.token}`);
    for (const socket of [...ownerSockets, strangerSocket]) {
      await socket.opened;
      await socket.waitFor((m) => m.type === 'hello');
    }

    const seq = expectAccepted(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }));
    // (Fan-out is asynchronous: a socket may also still hear of the vault's creation, seq 1.)
    for (const socket of ownerSockets) expect(await socket.waitFor((m) => m.type === 'poke' && m.seq === seq)).toEqual({ type: 'poke', vaultId, seq });

    // The stranger hears of their own vault, and of nothing else.
    const theirSeq = expectAccepted(await stranger.apply(strangersVault, newId(), { type: 'folder.create', parentId: null, name: sealed() }));
    expect(await strangerSocket.waitFor((m) => m.type === 'poke' && m.seq === theirSeq)).toEqual({ type: 'poke', vaultId: strangersVault, seq: theirSeq });
    expect(strangerSocket.messages.filter((m) => m.type === 'poke' && m.vaultId !== strangersVault)).toEqual([]);
    for (const socket of ownerSockets) expect(socket.messages.filter((m) => m.type === 'poke' && m.vaultId !== vaultId)).toEqual([]);
    for (const socket of [...ownerSockets, strangerSocket]) socket.socket.close();
  });

  it('R3: a rejected operation or a repeat pokes nobody; one push pokes once with its newest seq', async () => {
    const vaultId = await owner.createVault();
    const socket = connectSocket(`${wsUrl}?token=${owner.token}`);
    await socket.opened;
    await socket.waitFor((m) => m.type === 'hello');
    // A rename of a node that does not exist is rejected and changes nothing.
    const [rejected] = await owner.push(await owner.sign(vaultId, newId(), { type: 'node.rename', name: sealed() }));
    expect(rejected?.status).toBe('rejected');
    const ops = await Promise.all(Array.from({ length: 20 }, () => owner.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() })));
    const last = expectAccepted((await owner.push(...ops)).at(-1));
    expect(await socket.waitFor((m) => m.type === 'poke' && m.seq > 1)).toEqual({ type: 'poke', vaultId, seq: last });
    // Pushing the same operations again (a retry) changes nothing and pokes nobody.
    expect((await owner.push(...ops)).every((r) => r.status === 'accepted')).toBe(true);
    const marker = await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() });
    await socket.waitFor((m) => m.type === 'poke' && m.seq === expectAccepted(marker));
    // Past the creation (whose poke may still arrive late), exactly one poke per accepted push.
    expect(socket.messages.filter((m) => m.type === 'poke' && m.seq > 1).map((m) => m.type === 'poke' && m.seq)).toEqual([last, last + 1]);
    socket.socket.close();
  });
  it('R3: an invitee hears the vault from the invitation on; a member who rejected or was revoked hears no more', async () => {
    const vaultId = await owner.createVault({ isPublic: true });
    const [alice, bob] = [await VaultActor.create(env, owner.api), await VaultActor.create(env, owner.api)];
    const sockets = [owner, alice, bob].map((actor) => connectSocket(`${wsUrl}?token=${actor.token}`));
    for (const socket of sockets) {
      await socket.opened;
      await socket.waitFor((m) => m.type === 'hello');
    }
    const [ownerSocket, aliceSocket, bobSocket] = sockets as [TestSocket, TestSocket, TestSocket];
    const pokesOf = (socket: TestSocket) => socket.messages.filter((m) => m.type === 'poke' && m.vaultId === vaultId).map((m) => m.type === 'poke' && m.seq);

    const before = expectAccepted(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear('Before') }));
    await ownerSocket.waitFor((m) => m.type === 'poke' && m.seq === before);
    const aliceInvite = await invite(owner, vaultId, alice, 'VIEWER', null);
    const bobInvite = await invite(owner, vaultId, bob, 'VIEWER', null);
    await aliceSocket.waitFor((m) => m.type === 'poke' && m.seq === expectAccepted(aliceInvite));
    await bobSocket.waitFor((m) => m.type === 'poke' && m.seq === expectAccepted(bobInvite));
    expect(pokesOf(aliceSocket)).not.toContain(before);

    const aliceMembership = await membershipIdOf(env.db, vaultId, alice.userId);
    expectAccepted(await bob.apply(vaultId, await membershipIdOf(env.db, vaultId, bob.userId), { type: 'member.reject' }));
    expectAccepted(await owner.apply(vaultId, aliceMembership, { type: 'member.revoke' }));
    const after = expectAccepted(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear('After') }));
    await ownerSocket.waitFor((m) => m.type === 'poke' && m.seq === after);
    // The fan-out writes to every socket of a batch at once; give the others a moment to receive.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pokesOf(aliceSocket).filter((seq) => seq !== false && seq >= after)).toEqual([]);
    expect(pokesOf(bobSocket).filter((seq) => seq !== false && seq >= after)).toEqual([]);
    for (const socket of sockets) socket.socket.close();
  });
});

describePostgres('vault pokes across server processes (SYNC_SPEC R4)', (env) => {
  it('R4: a change pushed through one process pokes a socket open on another', async () => {
    const app = await env.buildApp();
    const owner = await VaultActor.create(env, new ApiClient(app));
    const vaultId = await owner.createVault();
    const [one, two] = await Promise.all([
      startServerProcess({ dataDir: env.dataDir, databaseUrl: env.databaseUrl }),
      startServerProcess({ dataDir: env.dataDir, databaseUrl: env.databaseUrl }),
    ]);
    try {
      const socket = connectSocket(`${two.wsUrl}?token=${owner.token}`);
      await socket.opened;
      await socket.waitFor((m) => m.type === 'hello');

      const op = await owner.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() });
      const response = await fetch(`${one.url}/api/vaults/ops`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ops: [op] }),
      });
      expect(response.status).toBe(200);
      const seq = expectAccepted(PushResponse.parse(await response.json()).results[0]);
      expect(await socket.waitFor((m) => m.type === 'poke', 10_000)).toEqual({ type: 'poke', vaultId, seq });
      socket.socket.close();
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  }, 90_000);
});
