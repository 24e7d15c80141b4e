/**
 * Pull pages are capped by bytes (SYNC_SPEC R61): a page stops before its operation bodies pass
 * PULL_PAGE_MAX_BYTES, says `hasMore`, and the next page goes on from there; a single operation
 * larger than the cap still comes, alone. The members' pull and the signed-out public pull share
 * the rule (readPulledPage).
 */
import { CompiledQuery } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import type { Field } from '../../src/protocol/vaults';
import { PULL_PAGE_MAX_BYTES, selectOpSizesPage } from '../services/VaultService';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { clear, expectAccepted, makeFile, newId, sealed, VaultActor } from '../testing/vaults';

/** A page as the wire carries it: seqs and each operation's JSON text, parsed loosely. */
interface RawPage {
  ops: { seq: number; op: unknown }[];
  headSeq: number;
  hasMore: boolean;
}

/** About 693,000 base64url characters: a draft near DRAFT_UPDATE_MAX. */
const LARGE_DRAFT_BYTES = 520_000;

describeEachDatabase('pull pages by bytes', (env) => {
  let api: ApiClient;
  let owner: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
  });

  /**
   * A vault whose log holds more than one page's bytes of what `area` serves: for members, a note
   * and seven drafts of about 700,000 characters; for the public (which is served no drafts, R53),
   * 240 metadata updates with descriptions of 19,000 characters (names are at most 255 bytes, R73).
   */
  async function vaultOfLargeOps(isPublic: boolean): Promise<string> {
    if (isPublic) return vaultOfLargeDescriptions();
    const vaultId = await owner.createVault({ isPublic });
    const noteId = newId();
    const version = await owner.upload(vaultId, makeFile(20, { isPublic }), { isPublic });
    const name = isPublic ? clear('Plan.md') : sealed();
    expectAccepted(await owner.apply(vaultId, noteId, { type: 'file.create', parentId: null, name, version }));
    for (let i = 0; i < 7; i += 1) {
      const update: Field = isPublic ? clear(sealed(LARGE_DRAFT_BYTES).c) : sealed(LARGE_DRAFT_BYTES);
      expectAccepted(await owner.apply(vaultId, noteId, { type: 'note.draft', baseVersionId: version.versionId, update }));
    }
    return vaultId;
  }

  async function vaultOfLargeDescriptions(): Promise<string> {
    const vaultId = await owner.createVault({ isPublic: true });
    for (let batch = 0; batch < 4; batch += 1) {
      const ops = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          owner.sign(vaultId, vaultId, { type: 'vault.updateMetadata', description: clear(`${batch}-${i}-`.padEnd(19_000, 'd')), tags: clear('[]') }),
        ),
      );
      for (const result of await owner.push(...ops)) expectAccepted(result);
    }
    return vaultId;
  }

  async function bodyBytes(vaultId: string): Promise<Map<number, number>> {
    const rows = await env.db.selectFrom('ops').select(['seq', 'body']).where('vault_id', '=', vaultId).execute();
    return new Map(rows.map((row) => [Number(row.seq), Buffer.byteLength(row.body)]));
  }

  async function pullRaw(url: string, token?: string): Promise<{ page: RawPage; length: number }> {
    const response = await api.get(url, token ? { token } : {});
    expectStatus(response, 200);
    return { page: JSON.parse(response.raw) as RawPage, length: Buffer.byteLength(response.raw) };
  }

  for (const area of ['members', 'public'] as const) {
    it(`[R61] a ${area} pull page stops before ${PULL_PAGE_MAX_BYTES} bytes of operations with hasMore, and the next page goes on to the head`, async () => {
      const vaultId = await vaultOfLargeOps(area === 'public');
      const sizes = await bodyBytes(vaultId);
      const url = (after: number) => (area === 'public' ? `/api/public/vaults/${vaultId}/ops?after=${after}` : `/api/vaults/${vaultId}/ops?after=${after}`);
      const token = area === 'public' ? undefined : owner.token;

      const first = await pullRaw(url(0), token);
      const seqs = first.page.ops.map((o) => o.seq);
      const taken = seqs.reduce((sum, seq) => sum + (sizes.get(seq) ?? 0), 0);
      expect(first.page.hasMore).toBe(true);
      expect(seqs.at(-1)).toBeLessThan(first.page.headSeq);
      expect(taken).toBeLessThanOrEqual(PULL_PAGE_MAX_BYTES);
      // It stopped because the next operation would not fit, not earlier.
      expect(taken + (sizes.get(seqs.at(-1)! + 1) ?? 0)).toBeGreaterThan(PULL_PAGE_MAX_BYTES);
      expect(first.length).toBeLessThan(PULL_PAGE_MAX_BYTES + 10_000);

      const second = await pullRaw(url(seqs.at(-1)!), token);
      expect(second.page.hasMore).toBe(false);
      expect([...seqs, ...second.page.ops.map((o) => o.seq)]).toEqual([...sizes.keys()].sort((a, b) => a - b));
    });
  }

  it('[R61] an operation larger than the cap comes alone, and the page after it goes on', async () => {
    const vaultId = await owner.createVault();
    const [head] = [...(await bodyBytes(vaultId)).keys()];
    // Rows written directly: no operation the API accepts today is this large, but one from an
    // older or a future version of the rules may be, and it must not block the log behind it.
    const huge = JSON.stringify({ pad: 'x'.repeat(PULL_PAGE_MAX_BYTES + 1_000) });
    const small = JSON.stringify({ pad: 'y' });
    const rows = [huge, small].map((body, index) => ({
      vault_id: vaultId,
      seq: head! + 1 + index,
      op_id: newId(),
      author_user_id: owner.userId,
      type: 'folder.create',
      object_id: newId(),
      body,
      body_bytes: Buffer.byteLength(body),
      received_at: 1,
    }));
    await env.db.insertInto('ops').values(rows).execute();
    await env.db.updateTable('vaults').set({ head_seq: head! + 2 }).where('id', '=', vaultId).execute();

    const alone = await pullRaw(`/api/vaults/${vaultId}/ops?after=${head}`, owner.token);
    expect(alone.page.ops.map((o) => o.seq)).toEqual([head! + 1]);
    expect(alone.page.ops[0]?.op).toEqual(JSON.parse(huge));
    expect(alone.page.hasMore).toBe(true);
    const next = await pullRaw(`/api/vaults/${vaultId}/ops?after=${head! + 1}`, owner.token);
    expect(next.page).toMatchObject({ ops: [{ seq: head! + 2 }], hasMore: false });
  });

  it('sizes a page from an index alone, never from the rows whose bodies it may leave out', async () => {
    const query = selectOpSizesPage(env.db, newId(), 0, 1_001).compile();
    if (env.kind === 'sqlite') {
      const plan = await env.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]));
      expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/^SEARCH ops USING COVERING INDEX ops_sizes \(vault_id=\? AND seq>\?\)$/);
    } else {
      // A small table is cheaper to scan whole; what matters is that the index can answer alone.
      const plan = await env.db.connection().execute(async (connection) => {
        await connection.executeQuery(CompiledQuery.raw('SET enable_seqscan = off'));
        try {
          return await connection.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]));
        } finally {
          await connection.executeQuery(CompiledQuery.raw('RESET enable_seqscan'));
        }
      });
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index Only Scan using ops_sizes/);
    }
  });
});
