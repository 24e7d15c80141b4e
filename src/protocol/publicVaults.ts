/**
 * The signed-out reads of PUBLIC vaults (spec 001 section 2, public vault viewer; SYNC_SPEC R40).
 * A private, deleted or unknown vault answers the same 404 NOT_FOUND, so ids cannot be probed.
 */
import { z } from 'zod';
import { Id } from './primitives';
import { type OperationType, PullResponse } from './vaults';

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

/**
 * What the public operations route serves of each operation type (SYNC_SPEC R53): `vault`
 * operations (the vault's own name, description, terms and status) always; `node` operations only
 * while their node and every folder above it are ACTIVE, so a hidden or deleted file's names and
 * versions are not served; `null` never (members' e-mail addresses, airdrop names, key rings and
 * expiries, note drafts, chat). A new operation type must take a side here to compile.
 * `member` (SYNC_SPEC R67, which narrows R53): the operations of a membership that may have
 * written (its invitation or a role change gave it OWNER or CONTRIBUTOR, or it is the creator's),
 * so the viewer derives roles from signed operations and judges every author as a member's device
 * does; never those of an airdrop membership or of one whose invitation carries an e-mail.
 * `nft` (SYNC_SPEC R140): an NFT's or collection's operations (object id: the NFT or collection
 * id), always: what was minted is public on the network already.
 */
export const PUBLIC_OPERATION_SCOPE = {
  'vault.create': 'vault',
  'vault.rename': 'vault',
  'vault.updateMetadata': 'vault',
  'vault.archive': 'vault',
  'vault.restore': 'vault',
  'vault.delete': 'vault',
  'folder.create': 'node',
  'file.create': 'node',
  'file.addVersion': 'node',
  'node.rename': 'node',
  'node.move': 'node',
  'node.hide': 'node',
  'node.restore': 'node',
  'node.delete': 'node',
  'note.draft': null,
  'member.invite': 'member',
  'member.confirm': 'member',
  'member.accept': 'member',
  'member.reject': 'member',
  'member.changeRole': 'member',
  'member.revoke': 'member',
  'member.leave': 'member',
  'member.airdrop': null,
  'vault.rotateKeys': null,
  'memo.create': null,
  'memo.react': null,
  // Atomic NFTs are public by nature (R140): served always, like the vault's own operations.
  'nft.mint': 'nft',
  'nft.collection': 'nft',
} as const satisfies Record<OperationType, 'vault' | 'node' | 'member' | 'nft' | null>;

/**
 * GET /api/public/vaults/:vaultId/ops?after=&limit=: a page of the operations the public may see,
 * in seq order. Operations left out leave gaps in seq, so the cursor is `nextAfter` (the last seq
 * the page covered, served or not), never the last served seq: a page may even be empty while
 * `hasMore` is true. The viewer pulls with `after=nextAfter` until `hasMore` is false.
 */
export const PublicPullResponse = PullResponse.extend({ nextAfter: z.number().int().min(0) });
export type PublicPullResponse = z.infer<typeof PublicPullResponse>;
