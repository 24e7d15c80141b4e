/**
 * SYNC_SPEC R7-R11 and R14 under stress: two devices of one account make at least 200 random
 * changes to one private vault, small uploads among them (new files and new versions, through
 * the real upload queue and transfer API), against the REAL server (buildApp on SQLite), the
 * real crypto API and fake-indexeddb, while the test takes each device's network up and down,
 * loses push answers after the server applied them, and "reloads" devices (a new SyncClient and
 * crypto worker over the same IndexedDB, the picked files gone from memory). Seeded:
 * CONVERGENCE_SEED=<n> replays a run; a failure prints its seed.
 *
 * At the end, with both devices online and synced:
 * - nothing was dropped: every operation either device queued is in the server's log exactly
 *   once, or is still on that device's outbox as a typed rejection;
 * - nothing is pending;
 * - both devices, and a third that pulls from scratch, show the same tree (ids, parents, names,
 *   statuses) and vault name, and the tree has no cycle;
 * - every upload completed: each is done on its device, its file operation accepted or shown as
 *   a typed refusal, and every accepted one downloads from the server byte-identical to what was
 *   picked; all three devices list the same versions of every file.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCryptoApi } from '../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../workers/transfer/createTransferApi';
import { createApiClient, type FetchLike } from '../platform/apiClient';
import { CairnDb } from '../storage/db';
import type { NodeRecord } from '../storage/vaultRecords';
import { downloadFileVersion } from './downloadFile';
import { setCurrentSync } from './currentSync';
import { SyncClient } from './SyncClient';
import { signedInServer } from './testing/realServer';
import { forgetPickedFiles } from './uploadQueue';
import * as actions from './vaultActions';

const SEED = Number(process.env.CONVERGENCE_SEED ?? 20261122);
const STEPS = 420;
const MIN_QUEUED = 200;
/**
 * Uploads the run must make, and how many of them at least must be accepted and checked byte for
 * byte. How many are refused (their folder or file hidden or deleted by the other device first)
 * depends on timing as well as the seed: from 1 to about 13 of some 30 here.
 */
const MIN_UPLOADS = 15;
const MIN_ACCEPTED_UPLOADS = 8;

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const real = signedInServer(() => setCurrentSync(null));

interface Device {
  name: string;
  db: CairnDb;
  client: SyncClient;
  online: boolean;
  /** Probability that a push's answer is lost after the server applied it. */
  loseAnswers: number;
  queued: Set<string>;
  reloads: number;
  /** The bytes picked for each of this device's uploads, by upload id. */
  uploads: Map<string, Uint8Array<ArrayBuffer>>;
}

/** The real server for one device: fails while the device is offline, and may lose push answers. */
function deviceFetch(device: () => Device, rand: () => number): typeof fetch {
  const server = real.fetch();
  return (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    if (!device().online) throw new TypeError('Failed to fetch');
    const response = await server(input, init);
    // The server applied the push, but the answer never arrives (a dropped connection).
    if (String(input).endsWith('/vaults/ops') && init.method === 'POST' && rand() < device().loseAnswers) throw new TypeError('Failed to fetch');
    return response;
  }) as typeof fetch;
}

let nextId = 0;

/** A SyncClient with a fresh crypto worker over `db`: what a page load does. */
async function boot(device: () => Device, db: CairnDb, rand: () => number): Promise<SyncClient> {
  const crypto = createCryptoApi();
  await crypto.loadPendingWallet(real.user.phrase.split(' '));
  await crypto.activatePendingWallet();
  const fetchLike = deviceFetch(device, rand);
  const client = new SyncClient(
    {
      db,
      crypto,
      api: createApiClient({ fetch: fetchLike as FetchLike }),
      transfer: createTransferApi({ fetch: fetchLike }),
      log: () => {},
      // Seeded ids: the same seed picks the same nodes in the same order.
      newId: () => `${device().name}-${(nextId += 1).toString(36).padStart(6, '0')}`,
    },
    { pollIntervalMs: 0 },
  );
  client.start(real.userId, real.me);
  return client;
}

async function newDevice(name: string, rand: () => number): Promise<Device> {
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  const device: Device = { name, db, client: null as unknown as SyncClient, online: true, loseAnswers: 0, queued: new Set(), reloads: 0, uploads: new Map() };
  device.client = await boot(() => device, db, rand);
  return device;
}

async function outboxIds(device: Device): Promise<Set<string>> {
  return new Set((await device.db.outbox.where('accountId').equals(real.userId).toArray()).map((r) => r.opId));
}

/** Runs `action` on `device` and records the operations it queued. */
async function act(device: Device, action: () => Promise<unknown>): Promise<void> {
  setCurrentSync(device.client);
  const before = await outboxIds(device);
  await action();
  for (const id of await outboxIds(device)) if (!before.has(id)) device.queued.add(id);
}

async function nodesOf(device: Device, vaultId: string): Promise<NodeRecord[]> {
  return device.db.nodes.where('[accountId+vaultId]').equals([real.userId, vaultId]).toArray();
}

/** The tree as compared between devices: id → parent, name, status, kind. */
async function treeOf(device: Device, vaultId: string): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  for (const node of await nodesOf(device, vaultId)) tree[node.id] = `${node.kind}|${node.parentId ?? 'root'}|${node.status}|${node.name}`;
  return tree;
}

/** Every version of every file of the vault, as compared between devices. */
async function versionsOf(device: Device, vaultId: string): Promise<Record<string, string>> {
  const versions: Record<string, string> = {};
  for (const v of await device.db.versions.where('[accountId+vaultId]').equals([real.userId, vaultId]).toArray()) {
    versions[v.versionId] = `${v.fileId}|${v.number}|${v.blobId}|${v.size}|${v.mimeTypeText}|${v.chunkHashes.join(',')}`;
  }
  return versions;
}

/** A small file of random bytes (sometimes empty), under 3 KiB. */
function smallFile(rand: () => number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(rand() < 0.05 ? 0 : 1 + Math.floor(rand() * 3_000));
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(rand() * 256);
  return bytes;
}

/** What the browser's 'online' event does: the upload queue goes on at once. */
function backOnline(device: Device): void {
  device.client.context.requestUploads();
}

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

function pick<T>(rand: () => number, items: T[]): T | undefined {
  return items.length ? items[Math.floor(rand() * items.length)] : undefined;
}

describe('SYNC_SPEC R7-R11: two devices converge through disconnects, lost answers and reloads', () => {
  it(`R11: ${STEPS} random steps (seed ${SEED}) end with both devices and the server in the same state`, async () => {
    const rand = random(SEED);
    const a = await newDevice('A', rand);
    const b = await newDevice('B', rand);
    const devices = [a, b];
    const log: string[] = [];
    try {
      setCurrentSync(a.client);
      const vaultId = await actions.createVault({ title: 'Convergence', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
      await a.client.syncNow();
      await b.client.syncNow();
      let names = 0;

      for (let step = 0; step < STEPS; step++) {
        const device = rand() < 0.5 ? a : b;
        const roll = rand();
        const nodes = await nodesOf(device, vaultId);
        const active = nodes.filter((n) => n.status === 'ACTIVE');
        const folders = active.filter((n) => n.kind === 'folder');
        const hidden = nodes.filter((n) => n.status === 'REVOKED');
        const folderTarget = () => (rand() < 0.25 ? null : (pick(rand, folders)?.id ?? null));
        names += 1;
        const name = `${device.name}${names}`;
        if (roll < 0.22) {
          const parentId = folderTarget();
          log.push(`${device.name} create ${name} in ${parentId}`);
          await act(device, () => actions.createFolder(vaultId, parentId, name));
        } else if (roll < 0.3) {
          // R14: a small file through the real upload queue, as a new file or a new version of
          // an existing one; its file operation is queued once the chunks are stored.
          const content = smallFile(rand);
          const replaced = rand() < 0.4 ? pick(rand, active.filter((n) => n.kind === 'file')) : undefined;
          const parentId = replaced ? replaced.parentId : folderTarget();
          log.push(`${device.name} uploads ${content.length} bytes ${replaced ? `as a version of ${replaced.id}` : `as ${name}.bin in ${parentId}`}`);
          setCurrentSync(device.client);
          const file = new File([content], `${name}.bin`, { type: 'application/octet-stream', lastModified: step });
          const { batchId } = await actions.uploadFiles(vaultId, parentId, [{ file, ...(replaced ? { replaceFileId: replaced.id } : {}) }]);
          const [upload] = await device.db.uploads.where('accountId').equals(real.userId).filter((u) => u.batchId === batchId).toArray();
          device.uploads.set(upload!.uploadId, content);
        } else if (roll < 0.47) {
          const node = pick(rand, active);
          if (!node) continue;
          log.push(`${device.name} rename ${node.id} → ${name}`);
          await act(device, () => actions.renameNode(vaultId, node.id, name));
        } else if (roll < 0.62) {
          const node = pick(rand, active);
          const parentId = folderTarget();
          // The UI never offers a folder itself as its target; concurrent moves can still make a
          // cycle on the server, which must refuse the second one.
          if (!node || node.id === parentId || node.parentId === parentId) continue;
          log.push(`${device.name} move ${node.id} → ${parentId}`);
          await act(device, () => actions.moveNodes(vaultId, [node.id], parentId));
        } else if (roll < 0.68) {
          const node = pick(rand, active);
          if (!node) continue;
          log.push(`${device.name} hide ${node.id}`);
          await act(device, () => actions.hideNodes(vaultId, [node.id]));
        } else if (roll < 0.73) {
          const node = pick(rand, hidden);
          if (!node) continue;
          log.push(`${device.name} restore ${node.id}`);
          await act(device, () => actions.restoreNodes(vaultId, [node.id]));
        } else if (roll < 0.75) {
          log.push(`${device.name} rename the vault → ${name}`);
          await act(device, () => actions.renameVault(vaultId, `Vault ${name}`));
        } else if (roll < 0.9) {
          log.push(`${device.name} sync (${device.online ? 'online' : 'offline'})`);
          await device.client.syncNow();
        } else if (roll < 0.97) {
          device.online = !device.online;
          device.loseAnswers = device.online && rand() < 0.4 ? 0.3 : 0;
          log.push(`${device.name} goes ${device.online ? 'online' : 'offline'} (lose answers ${device.loseAnswers})`);
          if (device.online) {
            backOnline(device);
            await device.client.syncNow();
          }
        } else {
          // A reload: the page and its workers go away mid-whatever; IndexedDB stays.
          log.push(`${device.name} reloads`);
          device.client.stop();
          forgetPickedFiles();
          device.reloads += 1;
          device.client = await boot(() => device, device.db, rand);
        }
      }

      // Everyone back online, answers no longer lost: sync until nothing moves.
      for (const device of devices) {
        device.online = true;
        device.loseAnswers = 0;
      }
      // At least 6 rounds; more while an upload still waits out a retry delay from before (its
      // queue is then idle, and its file operation waits for it), up to a bound.
      const isSettled = async () => {
        for (const device of devices) {
          const outbox = await device.db.outbox.where('accountId').equals(real.userId).toArray();
          const uploads = await device.db.uploads.where('accountId').equals(real.userId).toArray();
          if (outbox.some((r) => r.status === 'pending') || uploads.some((u) => u.state !== 'done')) return false;
        }
        return true;
      };
      for (let round = 0; round < 40 && (round < 6 || !(await isSettled())); round++) {
        for (const device of devices) {
          backOnline(device);
          await device.client.syncNow();
        }
        if (round >= 6) await new Promise((resolve) => setTimeout(resolve, 250));
      }

      const queued = a.queued.size + b.queued.size;
      expect(queued, 'operations queued by the two devices').toBeGreaterThanOrEqual(MIN_QUEUED);
      expect(a.reloads + b.reloads, 'reloads during the run').toBeGreaterThan(0);

      const serverOps = await real.env.db.selectFrom('ops').select(['op_id', 'seq']).where('vault_id', '=', vaultId).execute();
      const serverIds = new Map<string, number>();
      for (const row of serverOps) serverIds.set(row.op_id, (serverIds.get(row.op_id) ?? 0) + 1);
      for (const device of devices) {
        const outbox = await device.db.outbox.where('accountId').equals(real.userId).toArray();
        expect(outbox.filter((r) => r.status === 'pending'), `${device.name} has nothing pending`).toEqual([]);
        const rejected = new Map(outbox.map((r) => [r.opId, r]));
        for (const id of device.queued) {
          const inLog = serverIds.get(id) ?? 0;
          const isRejected = rejected.get(id)?.status === 'rejected';
          expect(inLog === 1 || (inLog === 0 && isRejected), `op ${id} of ${device.name}: ${inLog} in the log, rejected ${isRejected}`).toBe(true);
        }
        // A rejection is a typed refusal the user sees, never a server fault.
        for (const record of rejected.values()) expect(record.error?.code).not.toBe('INTERNAL');
      }

      // R14: every upload completed (all its chunks stored, its file operation queued); each
      // refused one is a typed rejection of its file operation, checked with the others below.
      const refusedUploads = new Set<string>();
      for (const device of devices) {
        for (const record of await device.db.uploads.where('accountId').equals(real.userId).toArray()) {
          expect(record.state, `upload ${record.uploadId} of ${device.name}`).toBe('done');
        }
        const outbox = await device.db.outbox.where('accountId').equals(real.userId).toArray();
        for (const record of outbox) if (record.status === 'rejected' && record.waitsForUploadId) refusedUploads.add(record.waitsForUploadId);
      }

      // R9: every refusal is shown on the item (or vault) it concerns, a refused creation in a
      // folder the device has; then the user dismisses them.
      for (const device of devices) {
        const refused = (await device.db.outbox.where('accountId').equals(real.userId).toArray()).filter((r) => r.status === 'rejected');
        const nodes = new Map((await nodesOf(device, vaultId)).map((n) => [n.id, n]));
        for (const record of refused) {
          if (record.op.body.type.startsWith('vault.')) {
            expect((await device.db.vaults.get([real.userId, vaultId]))?.rejection, `vault rejection on ${device.name}`).toBeTruthy();
            continue;
          }
          const node = nodes.get(record.op.objectId);
          expect(node?.rejection, `${record.op.body.type} ${record.op.objectId} refused on ${device.name} is shown`).toBeTruthy();
          if (record.op.body.type === 'folder.create') {
            // Never under a folder the device does not have: in the tree, or in a folder someone
            // hid since (found through Hidden files).
            for (let at = node?.parentId ?? null; at; at = nodes.get(at)?.parentId ?? null) expect(nodes.has(at), `ancestor ${at} exists`).toBe(true);
          }
        }
        for (const record of refused) await device.client.dismissRejection(record.opId);
      }

      const fresh = await newDevice('C', rand);
      await fresh.client.syncNow();
      const [treeA, treeB, treeC] = await Promise.all([treeOf(a, vaultId), treeOf(b, vaultId), treeOf(fresh, vaultId)]);
      expect(treeA).toEqual(treeC);
      expect(treeB).toEqual(treeC);
      const vaultNames = await Promise.all(devices.concat(fresh).map(async (d) => (await d.db.vaults.get([real.userId, vaultId]))?.name));
      expect(new Set(vaultNames).size).toBe(1);

      // R11, R14: the same versions everywhere, and every accepted upload is on the server byte for byte.
      const versionsC = await versionsOf(fresh, vaultId);
      expect(await versionsOf(a, vaultId)).toEqual(versionsC);
      expect(await versionsOf(b, vaultId)).toEqual(versionsC);
      let accepted = 0;
      for (const device of devices) {
        for (const [uploadId, content] of device.uploads) {
          const record = await device.db.uploads.get([real.userId, uploadId]);
          const version = await fresh.db.versions.get([real.userId, record!.versionId]);
          if (refusedUploads.has(uploadId)) {
            expect(version, `refused upload ${uploadId} of ${device.name} is no version`).toBeUndefined();
            continue;
          }
          expect(version, `upload ${uploadId} of ${device.name} is a version of ${record!.fileId}`).toMatchObject({ fileId: record!.fileId, size: content.length });
          const served = await bytesOf(await downloadFileVersion(fresh.client.context, vaultId, record!.fileId, record!.versionId));
          expect(Buffer.from(served).equals(Buffer.from(content)), `bytes of upload ${uploadId} of ${device.name}`).toBe(true);
          accepted += 1;
        }
      }
      expect(devices.reduce((sum, d) => sum + d.uploads.size, 0), 'uploads made').toBeGreaterThanOrEqual(MIN_UPLOADS);
      expect(accepted, 'uploads accepted and checked byte for byte').toBeGreaterThanOrEqual(MIN_ACCEPTED_UPLOADS);
      fresh.client.stop();

      // No cycle: every node reaches the root.
      const parents = new Map((await nodesOf(fresh, vaultId)).map((n) => [n.id, n.parentId]));
      for (const id of parents.keys()) {
        const seen = new Set<string>();
        for (let at: string | null | undefined = id; at; at = parents.get(at)) {
          expect(seen.has(at), `cycle through ${at}`).toBe(false);
          seen.add(at);
        }
      }
    } catch (error) {
      console.error(`Convergence run failed with CONVERGENCE_SEED=${SEED}; last steps:\n${log.slice(-25).join('\n')}`);
      for (const device of devices) {
        const uploads = await device.db.uploads.where('accountId').equals(real.userId).toArray();
        const unfinished = uploads.filter((u) => u.state !== 'done').map((u) => `${u.uploadId} ${u.state} ${u.error ?? ''}`);
        console.error(`${device.name}: ${device.reloads} reloads, uploads not done: ${unfinished.join('; ') || 'none'}`);
      }
      throw error;
    } finally {
      for (const device of devices) device.client.stop();
    }
  }, 240_000);
});
