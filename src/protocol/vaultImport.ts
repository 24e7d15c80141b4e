/**
 * Importing a vault's verified history onto a server that does not have it (issue 19,
 * docs/SYNC_SPEC.md R91-R93): POST /vaults/{vaultId}/import, one R84 run per request, in order.
 * The vault keeps its id, its signed operations verbatim and their seqs.
 */
import { z } from 'zod';
import { Id } from './primitives';
import { VaultHistoryRun } from './vaultHistory';

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
