/**
 * Importing a vault's verified history onto a server that does not have it (issue 19,
 * docs/SYNC_SPEC.md R91-R93): POST /vaults/{vaultId}/import, one R84 run per request, in order.
 * The vault keeps its id, its signed operations verbatim and their seqs.
 */
import { z } from 'zod';
import { Id } from './primitives';
import { Operation } from './vaults';

/** At most this many operations in one run (R84), so in one import request. */
export const HISTORY_RUN_MAX_OPS = 1_000;

/** One operation of a run as R84 writes it: its seq, when the first server received it, the signed operation. */
export const HistoryEntry = z.strictObject({ seq: z.number().int().min(1), receivedAt: z.number().int().min(0), op: Operation });
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** An R84 history item's data: operations `seqFrom..seqTo` of one vault, consecutive. */
export const VaultHistoryRun = z
  .strictObject({
    format: z.literal('cairn-vault-history'),
    version: z.literal(1),
    vaultId: Id,
    seqFrom: z.number().int().min(1),
    seqTo: z.number().int().min(1),
    ops: z.array(HistoryEntry).min(1).max(HISTORY_RUN_MAX_OPS),
  })
  .superRefine((run, ctx) => {
    if (run.seqTo - run.seqFrom + 1 !== run.ops.length || run.ops.some((entry, i) => entry.seq !== run.seqFrom + i)) {
      ctx.addIssue({ code: 'custom', path: ['ops'], message: 'The operations must be seqFrom..seqTo, in order, each once' });
    }
    if (run.ops.some((entry) => entry.op.vaultId !== run.vaultId)) {
      ctx.addIssue({ code: 'custom', path: ['ops'], message: 'Every operation must be of the run\'s vault' });
    }
  });
export type VaultHistoryRun = z.infer<typeof VaultHistoryRun>;

/**
 * POST /vaults/{vaultId}/import: the next run of the vault's history (the first starts at seq 1
 * with the vault.create); `isLast` on the run that ends at the head. 409 CONFLICT when the server
 * has the vault (or another user's import of it); 422 with the refused operation's seq as the
 * `details` entry at path IMPORT_REFUSED_SEQ (and everything imported so far removed); 403
 * FORBIDDEN when the importer does not hold an ACCEPTED membership at the end (removed too).
 */
export const VaultImportRequest = z.strictObject({ run: VaultHistoryRun, isLast: z.boolean() });
export type VaultImportRequest = z.infer<typeof VaultImportRequest>;
export const VaultImportResponse = z.object({ vaultId: Id, headSeq: z.number().int().min(0), status: z.enum(['IN_PROGRESS', 'DONE']) });
export type VaultImportResponse = z.infer<typeof VaultImportResponse>;

/** The `details` path of an import refusal whose message is the refused operation's seq. */
export const IMPORT_REFUSED_SEQ = 'seq';
