/**
 * The signed-out reads of PUBLIC vaults (spec 001 section 2, public vault viewer; SYNC_SPEC R40).
 * A private, deleted or unknown vault answers the same 404 NOT_FOUND, so ids cannot be probed.
 */
import { z } from 'zod';
import { Id } from './primitives';

/** GET /api/public/vaults/:vaultId: what a signed-out viewer may know of a public vault. */
export const PublicVaultSummary = z.object({
  vaultId: Id,
  status: z.enum(['ACTIVE', 'ARCHIVED']),
  isCloud: z.boolean(),
  ownerAddress: z.string(),
  /** The vault's last seq: the viewer pulls until its cursor reaches it. */
  headSeq: z.number().int().min(0),
  size: z.number().int().min(0),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type PublicVaultSummary = z.infer<typeof PublicVaultSummary>;

export const PublicVaultParams = z.strictObject({ vaultId: Id });
export const PublicChunkParams = z.strictObject({ vaultId: Id, blobId: Id, index: z.coerce.number().int().min(0) });
