/**
 * Vaults, folders, files and their encrypted content (spec 000 sections 2-6, 9; DESIGN.md 3-4).
 *
 * Every change to a vault is an `Operation`: made and signed on the device by its author's
 * Ed25519 key, pushed to the server, checked there (schema, signature, author is the session
 * user, role, quota, structure), given the vault's next sequence number and stored. Clients pull
 * a vault's operations by cursor, verify each signature, decrypt the sealed fields and project the
 * result into Dexie; the UI reads only Dexie.
 *
 * What the server can read: ids, parent ids, object kinds, statuses, sizes, chunk counts and
 * hashes, timestamps, roles. What it cannot: every `Field` of a private vault (names,
 * descriptions, tags, terms, MIME types) and every file byte. Public vaults carry clear fields.
 *
 * Paths are relative to `/api`. Binary values are base64url without padding.
 */
import { z } from 'zod';
import { Base64Url, Ed25519Signature, Email, Hex32, Id } from './primitives';
import { NFT_LIMITS, NftCollectionMetadata, NftMetadata, Udl } from './nfts';
import { Thumbnail } from './thumbnails';

// --- constants (spec 000 section 9, spec 001 section 9) ---------------------------------------

export const VAULT_LIMITS = {
  TITLE_MAX: 150,
  DESCRIPTION_MAX: 300,
  TAG_MAX: 50,
  TAGS_MAX: 30,
  TERMS_MAX: 20_000,
  NAME_MAX: 255,
  MIME_MAX: 255,
  VAULT_PAGE_SIZE: 40,
  /** Batch download is disabled at or above this total (decimal bytes). */
  BATCH_DOWNLOAD_MAX: 1e9,
  /** Free allowances per account at sign-up. */
  FREE_CLOUD_BYTES: 1_000_000_000,
  FREE_PERMANENT_BYTES: 100_000_000,
  /** Largest single file accepted (the spec leaves the value open; see docs/decisions.md). */
  FILE_MAX_BYTES: 30_000_000_000,
  /** Operations per pull page and per push batch. */
  PULL_PAGE_MAX: 1_000,
  PUSH_BATCH_MAX: 200,
} as const;

/**
 * Chat (spec 000 section 2, Chat; section 9): messages load 25 a page; a message is at most
 * MESSAGE_MAX characters (docs/decisions.md). The server cannot count the characters of a sealed
 * message, so it bounds the ciphertext by the largest a MESSAGE_MAX-character text can seal to.
 */
export const MEMO_LIMITS = {
  PAGE_SIZE: 25,
  MESSAGE_MAX: 5_000,
  /** An emoji (possibly several code points joined). */
  REACTION_MAX: 32,
} as const;

/**
 * Plaintext bytes per content chunk of what is uploaded now. The last chunk may be shorter; an
 * empty file has 1 chunk. Each version names its chunk size (`FileVersion.chunkSize`): versions
 * uploaded before chunks grew to 8 MiB have 4 MiB chunks, and stay readable (docs/decisions.md).
 */
export const CHUNK_SIZE = 8 * 1024 * 1024;
/** The chunk sizes a version may have: the first (4 MiB) and CHUNK_SIZE. */
export const CHUNK_SIZES = [4 * 1024 * 1024, CHUNK_SIZE] as const;
export type ChunkSize = (typeof CHUNK_SIZES)[number];
/** AES-GCM adds a 16-byte tag to every chunk of a private file. */
export const CHUNK_TAG_BYTES = 16;
export const CHUNK_MAX_BYTES = Math.max(...CHUNK_SIZES) + CHUNK_TAG_BYTES;

export const Role = z.enum(['OWNER', 'CONTRIBUTOR', 'VIEWER', 'REVOKED']);
export type Role = z.infer<typeof Role>;

/** The roles a member can be given (REVOKED is reached by revoking, never by inviting). */
export const MemberRole = z.enum(['OWNER', 'CONTRIBUTOR', 'VIEWER']);
export type MemberRole = z.infer<typeof MemberRole>;

/**
 * Membership statuses (spec 001 section 4). INVITED: invited, key ring not yet sealed to the
 * invitee (the owner confirms access); PENDING: key ring sealed, the invitee has not accepted the
 * terms yet; ACCEPTED; REJECTED (by the invitee); REVOKED (by an owner, or the member left).
 */
export const MembershipStatus = z.enum(['ACCEPTED', 'PENDING', 'INVITED', 'REJECTED', 'REVOKED']);
export type MembershipStatus = z.infer<typeof MembershipStatus>;

/** A sealed key ring (src/crypto/keyRing.ts): base64url(crypto_box_seal(JSON list of keys)). */
export const SealedKeyRing = Base64Url(64_000);

/** Most members a vault's key rotation may name (every remaining member holding keys). */
export const MEMBERS_MAX = 1_000;

/**
 * A key rotation (DESIGN.md section 3): the ring with one fresh key appended (`keyCount` keys,
 * exactly one more than the vault had), sealed to each remaining member that holds keys, keyed by
 * membership id. The server accepts it only when the ids are exactly those members, so no one is
 * left out and no removed member is included.
 */
export const KeyRotation = z.strictObject({
  keyCount: z.number().int().min(2).max(10_000),
  sealedKeys: z
    .record(Id, SealedKeyRing)
    .refine((map) => Object.keys(map).length >= 1 && Object.keys(map).length <= MEMBERS_MAX, 'Between 1 and 1,000 members'),
});
export type KeyRotation = z.infer<typeof KeyRotation>;

export const VaultStatus = z.enum(['ACTIVE', 'ARCHIVED', 'DELETED']);
export type VaultStatus = z.infer<typeof VaultStatus>;

/** Files and folders: ACTIVE, hidden (REVOKED, shown under revoked-files), or DELETED. */
export const NodeStatus = z.enum(['ACTIVE', 'REVOKED', 'DELETED']);
export type NodeStatus = z.infer<typeof NodeStatus>;

export const NodeKind = z.enum(['folder', 'file']);
export type NodeKind = z.infer<typeof NodeKind>;

// --- sealed and clear fields -------------------------------------------------------------------

/**
 * A user text of a private vault, sealed with XChaCha20-Poly1305 under vault key number `key`,
 * with associated data binding (vaultId, objectId, field name, key number):
 * `c` = base64url(nonce(24) || ciphertext). See src/crypto/fieldEnvelope.ts.
 */
export const SealedField = z.strictObject({ key: z.number().int().min(0).max(10_000), c: Base64Url(40_000) });
/** A user text of a public vault, in clear. */
export const ClearField = z.strictObject({ clear: z.string().max(20_000) });
export const Field = z.union([SealedField, ClearField]);
export type SealedField = z.infer<typeof SealedField>;
export type Field = z.infer<typeof Field>;

/** The names of sealed fields, part of each field's associated data. */
export const FIELD_NAMES = ['name', 'description', 'tags', 'terms', 'mimeType', 'fileKey', 'draft', 'message', 'reaction'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

/**
 * Most characters of a note draft's Yjs update (base64url, sealed or clear): a pasted page of
 * text. Several such operations still fit one push (PUSH_BODY_LIMIT, 4 MiB) only a few at a time,
 * so the editor batches keystrokes (about 1 s) rather than sending one operation each.
 */
export const DRAFT_UPDATE_MAX = 700_000;
/**
 * Most note.draft operations, and most characters of their updates, the server accepts per note
 * and base version (SYNC_SPEC R63): about a quarter of an hour of typing (one operation a second)
 * or thirty pasted pages. Past either the draft is refused with DRAFT_LIMIT until it is saved.
 */
export const DRAFT_LIMITS = { OPS_PER_BASE: 1_000, CHARS_PER_BASE: 20 * 1024 * 1024 } as const;
/** The DRAFT_LIMIT refusal's text, shown by the note editor. */
export const DRAFT_LIMIT_MESSAGE = 'This note has too many unsaved changes to share. Save the note to go on sharing your edits; your text is kept on this device.';
/**
 * A `Field` whose value is a Yjs update of a note draft, base64url (docs/SYNC_SPEC.md R25):
 * sealed under the vault key like any field (private vaults), clear in public ones, with a
 * larger size limit than names and texts.
 */
export const DraftField = z.union([
  z.strictObject({ key: z.number().int().min(0).max(10_000), c: Base64Url(DRAFT_UPDATE_MAX + 200) }),
  z.strictObject({ clear: Base64Url(DRAFT_UPDATE_MAX) }),
]);
export type DraftField = z.infer<typeof DraftField>;

// --- file content ------------------------------------------------------------------------------

/**
 * One stored version of a file's bytes. Private: chunks are AES-256-GCM under a fresh file key
 * (the `fileKey` field seals it under the vault key); public: chunks are the clear bytes and
 * `fileKey` is absent. `chunkHashes[i]` is the SHA-256 (hex) of stored chunk i, exactly as
 * uploaded; the whole version, hashes included, is covered by the operation's signature, so a
 * download checks every chunk against what the uploader signed before showing the file complete.
 */
export const FileVersion = z.strictObject({
  versionId: Id,
  blobId: Id,
  /** Plaintext size in bytes. */
  size: z.number().int().min(0).max(VAULT_LIMITS.FILE_MAX_BYTES),
  /** Stored size in bytes (plaintext plus one tag per chunk when private). */
  storedSize: z.number().int().min(0),
  chunkSize: z.union([z.literal(CHUNK_SIZES[0]), z.literal(CHUNK_SIZES[1])]),
  chunkCount: z.number().int().min(1),
  chunkHashes: z.array(Hex32).min(1),
  /** Sealed under the vault key (private), absent (public). */
  fileKey: SealedField.optional(),
  mimeType: Field,
  /** The source file's last-modified time (ms), used to resume only an unchanged file. */
  lastModified: z.number().int().min(0),
  /** Images and PDFs uploaded since issue 26 (SYNC_SPEC R79); absent before, and when none could be made. */
  thumbnail: Thumbnail.optional(),
});
export type FileVersion = z.infer<typeof FileVersion>;

// --- operations --------------------------------------------------------------------------------

const VaultMeta = {
  name: Field,
  description: Field.optional(),
  tags: Field.optional(),
  terms: Field.optional(),
};

/**
 * The body of each operation type. `objectId` (on the envelope) is the vault id for vault.*
 * operations and the folder or file id otherwise; `parentId` null means the vault root.
 */
export const OperationBody = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('vault.create'),
    isPublic: z.boolean(),
    isCloud: z.boolean(),
    ...VaultMeta,
    /** The key ring (JSON list of base64url 32-byte keys) sealed to the owner's X25519 key; absent for public vaults. */
    ownerKeys: Base64Url(8_000).optional(),
  }),
  z.strictObject({ type: z.literal('vault.rename'), name: Field }),
  z.strictObject({ type: z.literal('vault.updateMetadata'), description: Field, tags: Field }),
  z.strictObject({ type: z.literal('vault.archive') }),
  z.strictObject({ type: z.literal('vault.restore') }),
  z.strictObject({ type: z.literal('vault.delete') }),
  z.strictObject({ type: z.literal('folder.create'), parentId: Id.nullable(), name: Field }),
  z.strictObject({ type: z.literal('file.create'), parentId: Id.nullable(), name: Field, version: FileVersion }),
  z.strictObject({ type: z.literal('file.addVersion'), version: FileVersion }),
  z.strictObject({ type: z.literal('node.rename'), name: Field }),
  z.strictObject({ type: z.literal('node.move'), parentId: Id.nullable() }),
  z.strictObject({ type: z.literal('node.hide') }),
  /** Restores a hidden node; `parentId` moves it when its old parent is gone or hidden. */
  z.strictObject({ type: z.literal('node.restore'), parentId: Id.nullable().optional() }),
  /** Cloud vaults: deletes a hidden node and frees its storage. Permanent vaults: 'Clear'. */
  z.strictObject({ type: z.literal('node.delete') }),
  /**
   * A collaborative edit of a note's draft (R25-R27): `objectId` is the note's file id and
   * `baseVersionId` the version the draft started from; `update` is a Yjs update (merged
   * keystrokes of about a second). The server stores it for the vault's members and cannot read it.
   */
  z.strictObject({ type: z.literal('note.draft'), baseVersionId: Id, update: DraftField }),

  // Members (spec 001 sections 3-6). `objectId` is the membership id. Only the server's answer
  // to these is authoritative; they are pushed online, never queued offline (docs/decisions.md).

  /**
   * OWNER invites an existing account, named by `memberKey` only: the invitee's public signing
   * key as the inviter looked it up by e-mail (GET /users/lookup); the server finds the account
   * (with a password) by that key, so keys are sealed to the right person. Private vaults: `keys`
   * is the whole ring sealed to the invitee's X25519 key and `keyCount` its length (it must be the
   * vault's current count): the membership starts PENDING. Public vaults carry neither and start
   * PENDING too. Re-inviting someone REJECTED or REVOKED reuses their membership id.
   */
  z.strictObject({
    type: z.literal('member.invite'),
    /**
     * Old operations only (SYNC_SPEC R55): invitations signed before issue 18 carried the
     * invitee's e-mail, which every member could read forever. They still parse, verify and
     * apply; the server refuses a new one that carries it (VALIDATION_FAILED).
     */
    email: Email.optional(),
    role: MemberRole,
    memberKey: Hex32,
    keys: SealedKeyRing.optional(),
    keyCount: z.number().int().min(1).max(10_000).optional(),
  }),
  /** OWNER: seals the ring to an INVITED member (the 'Confirm access' page): INVITED -> PENDING. */
  z.strictObject({ type: z.literal('member.confirm'), keys: SealedKeyRing.optional(), keyCount: z.number().int().min(1).max(10_000).optional() }),
  /** The invitee (author = the membership's account): PENDING -> ACCEPTED ('Accept terms'). */
  z.strictObject({ type: z.literal('member.accept') }),
  /** The invitee: PENDING or INVITED -> REJECTED; their sealed ring is dropped. */
  z.strictObject({ type: z.literal('member.reject') }),
  /** OWNER changes a member's role. A vault always keeps at least one ACCEPTED OWNER. */
  z.strictObject({ type: z.literal('member.changeRole'), role: MemberRole }),
  /**
   * OWNER revokes a member or an invitation: -> REVOKED (role REVOKED, ring dropped). Private
   * vaults rotate in the same operation when the member held keys (required then).
   */
  z.strictObject({ type: z.literal('member.revoke'), rotation: KeyRotation.optional() }),
  /**
   * A member leaves (author = the member): -> REVOKED. Refused for the last ACCEPTED OWNER. The
   * leaver must not make the new key, so a private vault is marked as needing a rotation, which
   * the next OWNER or CONTRIBUTOR device online performs with vault.rotateKeys; until then the
   * server refuses new sealed content (KEY_ROTATION_PENDING), which clients keep and retry.
   */
  z.strictObject({ type: z.literal('member.leave') }),
  /** OWNER or CONTRIBUTOR: the rotation a leave asked for. `objectId` is the vault id. */
  z.strictObject({ type: z.literal('vault.rotateKeys'), rotation: KeyRotation }),
  /**
   * OWNER creates a passwordless member for an airdrop link (spec 001 section 4, Airdrop): a
   * fresh wallet made on the owner's device, whose secret travels only in the link. The server
   * makes a passwordless account for `memberKey` / `memberEncryptionKey` and an ACCEPTED
   * membership that ends at `expiresAt` (ms; the end of the chosen day) with an upload allowance
   * of `storageAllowance` bytes (0: no uploads). `name` is the free identifier typed in the form.
   */
  z.strictObject({
    type: z.literal('member.airdrop'),
    name: Field,
    role: z.enum(['CONTRIBUTOR', 'VIEWER']),
    memberKey: Hex32,
    memberEncryptionKey: Hex32,
    keys: SealedKeyRing.optional(),
    keyCount: z.number().int().min(1).max(10_000).optional(),
    expiresAt: z.number().int().min(0),
    storageAllowance: z.number().int().min(0),
  }),

  // Chat (spec 000 section 2, Chat; section 4, Reactions), private vaults only. `objectId` is the
  // memo id (client-made, like node ids) for both.

  /** OWNER or CONTRIBUTOR posts a message (trimmed, non-empty, at most MEMO_LIMITS.MESSAGE_MAX characters). */
  z.strictObject({ type: z.literal('memo.create'), message: Field }),
  /**
   * OWNER or CONTRIBUTOR adds (`isAdded`) or removes their reaction `reaction` (one emoji) on a
   * memo. Per memo, author and emoji the last operation wins (docs/SYNC_SPEC.md R23).
   */
  z.strictObject({ type: z.literal('memo.react'), reaction: Field, isAdded: z.boolean() }),
  /**
   * OWNER or CONTRIBUTOR mints an Atomic NFT (object id = the NFT's id) in a public permanent vault
   * (docs/SYNC_SPEC.md R136): its asset's bytes (a public version: clear MIME type, no file key),
   * metadata and licence. `collectionId` names the collection whose `nft.collection` follows it.
   */
  z.strictObject({ type: z.literal('nft.mint'), collectionId: Id.nullable(), metadata: NftMetadata, udl: Udl.nullable(), ucm: z.boolean(), version: FileVersion }),
  /**
   * OWNER or CONTRIBUTOR closes a collection (object id = the collection's id) over NFTs already
   * minted into it, in this order (R136), with an optional thumbnail and banner (public versions).
   */
  z.strictObject({
    type: z.literal('nft.collection'),
    metadata: NftCollectionMetadata,
    udl: Udl.nullable(),
    ucm: z.boolean(),
    nftIds: z.array(Id).min(1).max(NFT_LIMITS.COLLECTION_MAX),
    thumbnail: FileVersion.nullable(),
    banner: FileVersion.nullable(),
  }),
]);
export type OperationBody = z.infer<typeof OperationBody>;
export type OperationType = OperationBody['type'];

/**
 * What the author signs: `canonicalJson` of this object (src/protocol/canonical.ts) with the
 * purpose 'vault-op'. `id` is made by the client once and reused on every retry: the server
 * answers an already-applied id with its original seq instead of applying it twice.
 */
export const UnsignedOperation = z.strictObject({
  id: Id,
  vaultId: Id,
  objectId: Id,
  /** The author's Ed25519 public key (hex); must be the pushing session's own key. */
  author: Hex32,
  /** Client clock (ms), informational: the server's order is the seq. */
  createdAt: z.number().int().min(0),
  /**
   * Shared by the operations of one user action over several items (a batch upload, hide,
   * restore, move or delete), so the timeline shows them as one group (spec 000 section 2,
   * Timeline; docs/SYNC_SPEC.md R28). Signed like the rest; absent for single actions.
   */
  groupRef: Id.optional(),
  body: OperationBody,
});
export type UnsignedOperation = z.infer<typeof UnsignedOperation>;

export const Operation = UnsignedOperation.extend({ signature: Ed25519Signature });
export type Operation = z.infer<typeof Operation>;

/** The payload signed for an operation: `{ purpose: 'vault-op', op: UnsignedOperation }`. */
export function operationSigningPayload(op: UnsignedOperation): { purpose: 'vault-op'; op: UnsignedOperation } {
  return { purpose: 'vault-op', op };
}

/** An operation as stored and served: the server's sequence number and time. */
export const SequencedOperation = z.object({ seq: z.number().int().min(1), receivedAt: z.number(), op: Operation });
export type SequencedOperation = z.infer<typeof SequencedOperation>;

// --- routes ------------------------------------------------------------------------------------

/**
 * POST /vaults/ops: pushes operations in order (any vaults). Each is answered on its own:
 * accepted with its seq (also for a repeated id), or rejected with a typed error, and a rejected
 * operation does not stop the ones after it that do not depend on it.
 */
export const PushRequest = z.strictObject({ ops: z.array(Operation).min(1).max(VAULT_LIMITS.PUSH_BATCH_MAX) });
export const PushResult = z.discriminatedUnion('status', [
  z.object({ id: Id, status: z.literal('accepted'), vaultId: Id, seq: z.number().int() }),
  z.object({
    id: Id,
    status: z.literal('rejected'),
    error: z.object({ code: z.string(), message: z.string() }),
  }),
]);
export const PushResponse = z.object({ results: z.array(PushResult) });
export type PushResult = z.infer<typeof PushResult>;

/** A vault the user belongs to, as GET /vaults lists it (no names: those are in the operations). */
export const VaultSummary = z.object({
  vaultId: Id,
  isPublic: z.boolean(),
  isCloud: z.boolean(),
  status: VaultStatus,
  ownerAddress: z.string(),
  /** The caller's membership. */
  membership: z.object({
    id: Id,
    role: Role,
    status: MembershipStatus,
    /** The key ring sealed to the caller's X25519 key (private vaults). */
    keys: z.string().nullable(),
    /** Airdrop memberships end then (ms); null otherwise. */
    expiresAt: z.number().nullable(),
    /** An airdrop member's upload allowance in bytes (0: no uploads at all); null: no cap of its own. */
    storageAllowance: z.number().int().min(0).nullable(),
    /**
     * A PENDING OWNER invitation to an admin of an organisation from someone of the same
     * organisation (SYNC_SPEC R127): the invitee's device accepts it by itself, signing
     * `member.accept` as 'Accept terms' would (R131).
     */
    organisationAirdrop: z.boolean().default(false),
  }),
  /** Keys in the vault's ring (0 for public vaults): a client holding fewer reopens `membership.keys`. */
  keyCount: z.number().int().min(0),
  /** A member left a private vault and no OWNER or CONTRIBUTOR device has rotated the key yet. */
  needsKeyRotation: z.boolean(),
  /** The vault's last seq: a client is up to date when its cursor equals it. */
  headSeq: z.number().int().min(0),
  /** Bytes stored by the vault's committed file versions. */
  size: z.number().int().min(0),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type VaultSummary = z.infer<typeof VaultSummary>;
/** GET /vaults: every vault the caller has a membership in, any status. */
export const VaultListResponse = z.object({ vaults: z.array(VaultSummary) });

/** GET /vaults/{vaultId}/ops?after={seq}&limit={n}: the next operations in seq order. */
export const PullQuery = z.strictObject({
  after: z.coerce.number().int().min(0),
  limit: z.coerce.number().int().min(1).max(VAULT_LIMITS.PULL_PAGE_MAX).optional(),
});
export const PullResponse = z.object({
  ops: z.array(SequencedOperation),
  headSeq: z.number().int().min(0),
  hasMore: z.boolean(),
});

/**
 * POST /vaults/{vaultId}/blobs: announces an upload before any byte is sent and reserves its
 * storage against the vault owner's allowance (cloud or permanent by the vault): 422
 * NOT_ENOUGH_STORAGE when it does not fit. Announcing the same blobId again is accepted and
 * answers which chunks are already stored, so an interrupted upload resumes from the first
 * missing chunk. A reservation never committed by a file operation expires after 7 days.
 */
export const BlobAnnounceRequest = z.strictObject({
  blobId: Id,
  storedSize: z.number().int().min(0),
  chunkCount: z.number().int().min(1),
});
export const BlobStatusResponse = z.object({
  blobId: Id,
  /** Indexes of chunks already stored, ascending. */
  storedChunks: z.array(z.number().int().min(0)),
  committed: z.boolean(),
});

/**
 * PUT /vaults/{vaultId}/blobs/{blobId}/chunks/{index}: the raw stored bytes
 * (application/octet-stream, at most CHUNK_MAX_BYTES) with header `x-chunk-sha256` (hex).
 * Idempotent: the same bytes again are fine; different bytes for a stored index are 409.
 * GET of the same path returns the stored bytes. Only members may read; OWNER and CONTRIBUTOR write.
 *
 * DELETE /vaults/{vaultId}/blobs/{blobId} (uploader only): a cancelled upload releases its
 * reservation and stored chunks. Idempotent; 409 CONFLICT once a file version committed it.
 */
export const ChunkParams = z.strictObject({ vaultId: Id, blobId: Id, index: z.coerce.number().int().min(0) });

/**
 * Many small files at once (issue 25): a pick of hundreds of small files is announced and sent a
 * group at a time rather than with two requests per file. Each request is one transaction on the
 * server and all-or-nothing; a refused group is sent again one file at a time, where each file
 * gets its own answer (its own NOT_ENOUGH_STORAGE, say).
 */
export const BLOB_BATCH_LIMITS = {
  /** Uploads per batch announcement and chunks per batch PUT. */
  ITEMS_MAX: 128,
  /** Stored bytes of one batch PUT's chunks together. */
  BYTES_MAX: 4 * 1024 * 1024,
} as const;

/**
 * POST /vaults/{vaultId}/blobs/batch: announces several uploads of the vault in one transaction,
 * each as POST /vaults/{vaultId}/blobs would; NOT_ENOUGH_STORAGE when they do not fit together
 * (then none is reserved). Answers each upload's status, in the order asked.
 */
export const BlobBatchAnnounceRequest = z.strictObject({
  blobs: z
    .array(BlobAnnounceRequest)
    .min(1)
    .max(BLOB_BATCH_LIMITS.ITEMS_MAX)
    .refine((blobs) => new Set(blobs.map((b) => b.blobId)).size === blobs.length, 'Each upload may be announced once'),
});
export const BlobBatchStatusResponse = z.object({ blobs: z.array(BlobStatusResponse) });

/**
 * POST /vaults/{vaultId}/blobs/chunks: several small chunks of the vault's uploads in one body
 * (Content-Type application/vnd.cairn.chunks, at most BLOB_BATCH_LIMITS.BYTES_MAX of chunks):
 * one line of JSON, this manifest, then each chunk's stored bytes back to back in its order.
 * Each chunk is checked and kept as its own PUT would be (idempotent, its SHA-256 checked); the
 * first refused one refuses the request, and the chunks kept before it stay (a retry sends them
 * again harmlessly).
 */
export const ChunkBatchManifest = z.strictObject({
  chunks: z
    .array(z.strictObject({ blobId: Id, index: z.number().int().min(0), size: z.number().int().min(0).max(CHUNK_MAX_BYTES), sha256: Hex32 }))
    .min(1)
    .max(BLOB_BATCH_LIMITS.ITEMS_MAX)
    .refine((chunks) => chunks.reduce((sum, c) => sum + c.size, 0) <= BLOB_BATCH_LIMITS.BYTES_MAX, 'The chunks exceed the batch size'),
});
export type ChunkBatchManifest = z.infer<typeof ChunkBatchManifest>;
export const CHUNK_BATCH_CONTENT_TYPE = 'application/vnd.cairn.chunks';

/** GET /storage: the caller's allowance and use (spec 000 section 3, Storage). */
export const StorageResponse = z.object({
  cloudTotal: z.number(),
  cloudUsed: z.number(),
  permanentTotal: z.number(),
  permanentUsed: z.number(),
  /**
   * Of the used figures, the vaults' own records rather than files: their operation logs (cloud)
   * and their history runs on the network (permanent, R84). The storage cards show them as Other.
   * Absent from a figure cached before they were sent: 0.
   */
  cloudLogUsed: z.number().default(0),
  permanentLogUsed: z.number().default(0),
});
export type StorageResponse = z.infer<typeof StorageResponse>;

/**
 * GET /vaults/{vaultId}/storage (OWNER and CONTRIBUTOR, accepted): the bytes an upload by the
 * caller into this vault may still reserve (spec 000 section 7, storage_available). Uploads are
 * charged to the vault's owner, so this is the owner's remaining allowance for the vault's kind,
 * capped for an airdrop member by what is left of their link's upload allowance.
 */
export const VaultStorageResponse = z.object({ available: z.number().int().min(0) });
export type VaultStorageResponse = z.infer<typeof VaultStorageResponse>;
