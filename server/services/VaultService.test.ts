/**
 * Pull pages: the stored operation texts are served as they are, and the page query is a range
 * scan of the primary key on both databases (a fresh device's first sync reads the whole log page
 * by page, so a page must not cost more the further the cursor is).
 */
import { CompiledQuery } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { PullResponse, VAULT_LIMITS } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { newId, sealed, VaultActor } from '../testing/vaults';
import { selectOpsPage } from './VaultService';

describeEachDatabase('pull pages', (env) => {
  let api: ApiClient;
  let owner: VaultActor;
  let vaultId: string;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
    vaultId = await owner.createVault();
  });

  it('answers each operation as the text stored at push time, and PullResponse parses it back to what was pushed', async () => {
    const ops = [];
    for (let i = 0; i < 3; i += 1) ops.push(await owner.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }));
    await owner.push(...ops);
    const response = await api.get(`/api/vaults/${vaultId}/ops?after=1`, { token: owner.token });
    expectStatus(response, 200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const stored = await env.db.selectFrom('ops').select(['seq', 'body']).where('vault_id', '=', vaultId).where('seq', '>', 1).orderBy('seq').execute();
    for (const row of stored) expect(response.raw).toContain(`"op":${row.body}}`);
    const page = PullResponse.parse(response.body);
    expect(page.ops.map((o) => o.op)).toEqual(ops);
    expect(page.ops.map((o) => o.seq)).toEqual([2, 3, 4]);
    expect(page).toMatchObject({ headSeq: 4, hasMore: false });
  });

  it('reads a page with an index range scan on (vault_id, seq), never a scan of the table', async () => {
    // Enough rows in two vaults for the planner to prefer the index over a scan of the table.
    const other = await owner.createVault();
    const rows = [];
    for (const id of [vaultId, other]) {
      for (let seq = 100; seq < 3_100; seq += 1) {
        rows.push({ vault_id: id, seq, op_id: newId(), author_user_id: owner.userId, type: 'folder.create', object_id: newId(), body: '{}', received_at: 1 });
      }
    }
    for (let i = 0; i < rows.length; i += 500) await env.db.insertInto('ops').values(rows.slice(i, i + 500)).execute();
    await env.db.executeQuery(CompiledQuery.raw('ANALYZE'));

    // At the start of the log and near its end.
    for (const after of [0, 2_500]) {
      const query = selectOpsPage(env.db, vaultId, after, VAULT_LIMITS.PULL_PAGE_MAX + 1).compile();
      if (env.kind === 'sqlite') {
        const plan = await env.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]));
        const details = plan.rows.map((r) => r.detail).join('\n');
        // The primary key of a table with a composite text key is one of its automatic indexes;
        // ops_sizes (vault_id, seq, body_bytes, migration 0007) serves the same range as well.
        expect(details).toMatch(/^SEARCH ops USING INDEX (sqlite_autoindex_ops_\d|ops_sizes) \(vault_id=\? AND seq>\?\)$/);
      } else {
        const plan = await env.db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]));
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        // An index scan in order, or a bitmap scan of the same range when most of it is wanted
        // (then at most a page is sorted): never a scan of the table or of the whole vault.
        expect(text).toMatch(/(Index Scan using|Bitmap Index Scan on) ops_pk/);
        expect(text).toMatch(/Index Cond: \(\(vault_id = .+\) AND \(seq > .+\)\)/);
        expect(text).not.toMatch(/Seq Scan/);
      }
    }
  });
});
