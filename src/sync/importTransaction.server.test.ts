/**
 * Import by network transaction id against the real server, a real arlocal gateway and the real
 * device path (crypto and transfer APIs, the upload queue): a file uploaded to a public permanent
 * vault is relayed to the gateway; importing its data item id into a folder adds a file of the same
 * name, type and bytes; an unknown id, a cancel, no network and a gateway outage add nothing
 * (docs/SYNC_SPEC.md R42-R43).
 */
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../platform/apiClient';
import { StorageTransactionPage } from '../protocol/arweave';
import { getChildren } from '../storage/vaultStore';
import { downloadFileVersion } from './downloadFile';
import { ImportError, fetchTransactionFile } from './importTransaction';
import { gatewayServerSuite } from './testing/gatewayServer';
import * as actions from './vaultActions';

const server = gatewayServerSuite('import');
const { device } = server;

/** Relay passes and mined blocks until the vault's versions are on the network; answers their data item ids. */
async function commit(vaultId: string): Promise<string[]> {
  const api = server.api();
  for (let round = 0; round < 10; round += 1) {
    await server.app.arweaveRelay!.runOnce();
    const rows = (await api.get('/storage/transactions', StorageTransactionPage)).items.filter((t) => t.vaultId === vaultId);
    if (rows.length > 0 && rows.every((t) => t.status === 'COMMITTED')) return rows.map((t) => t.dataItemId!);
    await server.gateway.mine();
  }
  throw new Error('The vault never reached the network');
}

async function bytesOf(blob: Blob): Promise<Buffer> {
  return Buffer.from(await blob.arrayBuffer());
}

async function failureOf(promise: Promise<unknown>): Promise<ImportError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

const UNKNOWN_ID = 'Zk9vQmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo';

describe('[R42][R43] import by network transaction id', () => {
  let vaultId = '';
  let dataItemId = '';
  const content = Buffer.from('Ridge survey, day 3: 14 cairns counted, two fallen.\n'.repeat(400));

  it('[R44] imports a relayed item into a folder with its name, type and bytes, and it is stored like an upload', async () => {
    const { db, client } = await device();
    vaultId = await actions.createVault({ title: 'Field archive', description: '', tags: [], terms: '', isPublic: true, isCloud: false });
    await actions.uploadFiles(vaultId, null, [{ file: new File([content], 'ridge survey.txt', { type: 'text/plain', lastModified: 3 }) }]);
    await client.syncNow();
    dataItemId = (await commit(vaultId))[0]!;
    expect(dataItemId).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const folderId = await actions.createFolder(vaultId, null, 'Imported');
    await client.syncNow();
    const progress: [number, number | null][] = [];
    const file = await fetchTransactionFile(dataItemId, { fetch: server.fetch(), onProgress: (loaded, total) => progress.push([loaded, total]) });
    expect(file.name).toBe('ridge survey.txt');
    expect(file.type).toBe('text/plain');
    expect((await bytesOf(file)).equals(content)).toBe(true);
    expect(progress[0]).toEqual([0, content.length]);
    expect(progress.at(-1)).toEqual([content.length, content.length]);

    // Handed to the normal upload path, into the current folder.
    await actions.uploadFiles(vaultId, folderId, [{ file }]);
    await client.syncNow();
    const [imported] = await getChildren(db, server.userId, vaultId, folderId);
    expect(imported).toMatchObject({ kind: 'file', name: 'ridge survey.txt', mimeType: 'text/plain', size: content.length, pendingOpIds: [] });
    expect((await bytesOf(await downloadFileVersion(client.context, vaultId, imported!.id))).equals(content)).toBe(true);

    // The import is the vault's own permanent copy: relayed under its own data item (docs/decisions.md).
    const ids = await commit(vaultId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    const served = await fetch(`${server.gateway.url}/${ids.find((id) => id !== dataItemId)}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(content)).toBe(true);
  }, 120_000);

  it('an id the network does not know is not found, and nothing is fetched for a malformed one', async () => {
    expect((await failureOf(fetchTransactionFile(UNKNOWN_ID, { fetch: server.fetch() }))).reason).toBe('notFound');
    let requests = 0;
    const counting: FetchLike = (input, init) => {
      requests += 1;
      return server.fetch()(input, init);
    };
    expect((await failureOf(fetchTransactionFile(dataItemId.slice(0, 42), { fetch: counting }))).reason).toBe('failed');
    expect(requests).toBe(0);
  });

  it('a cancel during the transfer and a lost network stop the import', async () => {
    const controller = new AbortController();
    const cancelled = fetchTransactionFile(dataItemId, { fetch: server.fetch(), signal: controller.signal, onProgress: () => controller.abort() });
    expect((await failureOf(cancelled)).reason).toBe('cancelled');
    const offline: FetchLike = () => Promise.reject(new TypeError('Failed to fetch'));
    expect((await failureOf(fetchTransactionFile(dataItemId, { fetch: offline }))).reason).toBe('offline');
  });

  it('a gateway outage fails the import', async () => {
    await server.gateway.stop();
    const error = await failureOf(fetchTransactionFile(dataItemId, { fetch: server.fetch() }));
    expect(error.reason).toBe('failed');
    expect(error.code).toBe('INTERNAL');
  });
});
