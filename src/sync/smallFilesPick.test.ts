/**
 * Issue 25: one pick of 1,000 small files into a private vault, on the REAL server (both
 * databases) with the REAL crypto and transfer APIs: sent a group at a time, and every file read
 * back byte for byte by a second device of the user.
 */
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../server/testing/databases';
import { getChildren, getUploads } from '../storage/vaultStore';
import { downloadFileVersion } from './downloadFile';
import { signedInServer } from './testing/realServer';
import { GROUP_FILES_MAX } from './uploadGroups';
import { forgetPickedFiles } from './uploadQueue';
import * as actions from './vaultActions';

const FILES = 1_000;

describeEachDatabase('[R14] one pick of 1,000 small files', (env) => {
  const server = signedInServer(() => forgetPickedFiles(), env);

  it('sends them a group at a time, and a second device reads every one byte for byte', async () => {
    const files = Array.from({ length: FILES }, (_, i) => new File([randomBytes(500 + (i % 7) * 300)], `note-${String(i).padStart(4, '0')}.txt`, { type: 'text/plain', lastModified: 1_000 + i }));
    const requests: string[] = [];
    const a = await server.startDevice(`${env.kind}-a`, (inner) => (async (input: string | URL | Request, init: RequestInit = {}) => {
      requests.push(`${init.method ?? 'GET'} ${String(input).replace(/\?.*$/, '')}`);
      return inner(input, init);
    }) as typeof fetch);
    const vaultId = await actions.createVault({ title: 'Many notes', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    await a.client.syncNow();
    requests.length = 0;
    await actions.uploadFiles(vaultId, null, files.map((file) => ({ file })));
    await a.client.syncNow();
    expect((await getUploads(a.db, server.userId)).filter((u) => u.state !== 'done')).toEqual([]);
    expect(await a.db.outbox.count()).toBe(0);
    // A group's chunks in one request and its announcement in another, not two requests a file.
    const groups = Math.ceil(FILES / GROUP_FILES_MAX);
    const count = (pattern: RegExp) => requests.filter((r) => pattern.test(r)).length;
    expect(count(/^POST \/api\/vaults\/[^/]+\/blobs\/chunks$/)).toBe(groups);
    expect(count(/^POST \/api\/vaults\/[^/]+\/blobs\/batch$/)).toBe(groups);
    expect(count(/^PUT /) + count(/^POST \/api\/vaults\/[^/]+\/blobs$/)).toBe(0);
    a.client.stop();

    const b = await server.startDevice(`${env.kind}-b`);
    await b.client.syncNow();
    const nodes = await getChildren(b.db, server.userId, vaultId, null);
    expect(nodes.map((n) => n.name).sort()).toEqual(files.map((f) => f.name));
    const byName = new Map(nodes.map((n) => [n.name, n.id]));
    for (const file of files) {
      const got = Buffer.from(await (await downloadFileVersion(b.client.context, vaultId, byName.get(file.name)!)).arrayBuffer());
      expect(got.equals(Buffer.from(await file.arrayBuffer())), file.name).toBe(true);
    }
    b.client.stop();
  }, 300_000);
});
