/**
 * Table types for Kysely. Column types are portable between SQLite and PostgreSQL: text,
 * integer, bigint epoch milliseconds, and booleans as integer 0/1 (see `dbBool.ts`).
 */

import type { Generated } from 'kysely';

/** 0 or 1. Only `dbBool.ts` converts between this and boolean. */
export type DbBool = number;

export interface UsersTable {
  id: string;
  email: string;
  email_verified: DbBool;
  opaque_record: string;
  enc_backup_phrase: string;
  public_signing_key: string;
  public_encryption_key: string;
  address: string;
  name: string | null;
  /** A data:image/...;base64 URL. */
  photo: string | null;
  mode: string;
  notifications: DbBool;
  notify_on_upload: DbBool;
  onboarding: DbBool;
  mfa_type: string | null;
  totp_secret: string | null;
  pending_totp_secret: string | null;
  totp_device: string | null;
  /** Last accepted TOTP time step, so a code is not accepted twice. */
  totp_last_step: number | null;
  phone_number: string | null;
  pending_phone: string | null;
  pending_phone_code_hash: string | null;
  pending_phone_expires_at: number | null;
  pending_phone_attempts: number;
  passwordless: DbBool;
  referral_id: string;
  referrer_id: string | null;
  created_at: number;
  updated_at: number;
  /** 0013: when the admin command disabled the account; null: enabled. */
  disabled_at?: number | null;
  /** 0013: the account's own allowances set by the admin command; null: the server's setting. */
  cloud_allowance?: number | null;
  permanent_allowance?: number | null;
  /** 0014: the account's plan (an id of the plans file); null: the default plan. */
  plan_id?: string | null;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  persistent: DbBool;
  created_at: number;
  expires_at: number;
  /** Last request made with it (ms, updated at most once a minute); null until its first (R80). */
  last_seen_at?: number | null;
  /** The browser's User-Agent header as last seen, at most 512 characters. */
  user_agent?: string | null;
}

export interface OpaqueLoginsTable {
  id: string;
  /** Null for an unknown e-mail: the login goes on with a fake record and fails at finish. */
  user_id: string | null;
  purpose: string;
  server_login_state: string;
  /** For reauth: the session that started it. */
  session_hash: string | null;
  created_at: number;
  expires_at: number;
}

export interface EmailTokensTable {
  user_id: string;
  purpose: string;
  code_hash: string;
  /** Recovery: the challenge the phrase's key must sign. */
  challenge: string | null;
  created_at: number;
  expires_at: number;
}

export interface MfaChallengesTable {
  token_hash: string;
  user_id: string;
  mfa_type: string;
  /** SMS: hash of the code sent. */
  code_hash: string | null;
  attempts: number;
  keep_signed_in: DbBool;
  created_at: number;
  expires_at: number;
}

export interface ReauthTokensTable {
  token_hash: string;
  user_id: string;
  session_hash: string;
  created_at: number;
  expires_at: number;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

export interface SupportReportsTable {
  id: string;
  user_id: string | null;
  action: string | null;
  error: string | null;
  context: string | null;
  user_agent: string | null;
  path: string | null;
  created_at: number;
  /** 0013: when the admin command closed the report; null: open. */
  closed_at?: number | null;
}

/** 0013: every change the admin command made (who ran it, what, on whom, when). */
export interface AdminActionsTable {
  id: string;
  actor: string;
  action: string;
  target: string;
  /** JSON of the action's parameters (e.g. the new allowances), or null. */
  details: string | null;
  created_at: number;
}

/** 0013: one rate limit's count in its current window, shared by every process (PostgreSQL). */
export interface RateLimitCountersTable {
  key: string;
  count: number;
  window_ends_at: number;
}

export interface VaultsTable {
  id: string;
  owner_user_id: string;
  is_public: DbBool;
  is_cloud: DbBool;
  /** VaultStatus. */
  status: string;
  head_seq: number;
  /** Stored bytes of committed file versions. */
  size: number;
  /** Keys in the vault's ring (0 for public vaults). */
  key_count: number;
  /** A member left a private vault; the next vault.rotateKeys clears it. */
  needs_rotation: DbBool;
  created_at: number;
  updated_at: number;
  /** Running total of the log's body_bytes, charged to the owner's cloud storage (0006). */
  op_bytes: Generated<number>;
  /** The last seq put in a history run (0010, SYNC_SPEC R84); 0: none yet. */
  history_seq: Generated<number>;
}

export interface MembershipsTable {
  id: string;
  vault_id: string;
  user_id: string;
  /** Role. */
  role: string;
  /** ACCEPTED, PENDING, INVITED, REJECTED, REVOKED. */
  status: string;
  /** The key ring sealed to the member's X25519 key (private vaults). */
  keys: string | null;
  invited_by_user_id: string | null;
  /** Airdrop memberships end then (ms). */
  expires_at: number | null;
  /** Airdrop memberships: bytes the member may upload (0: none). */
  storage_allowance: number | null;
  created_at: number;
  updated_at: number;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  vault_id: string | null;
  event: string;
  object_type: string;
  object_id: string;
  from_user_id: string | null;
  /** 'UNREAD' | 'READ'. */
  status: string;
  created_at: number;
  /** Events this row stands for (a coalesced run, SYNC_SPEC R30). */
  count: number;
  /** 'NORMAL' | 'HIGH'. */
  priority: string;
  /** When the run last grew; null until it does. */
  updated_at: number | null;
}

export interface WalletChallengesTable {
  challenge: string;
  public_signing_key: string;
  created_at: number;
  expires_at: number;
}

/** The server's structural view of a folder or file: no names (those live in `ops.body`). */
export interface NodesTable {
  id: string;
  vault_id: string;
  /** NodeKind. */
  kind: string;
  parent_id: string | null;
  /** NodeStatus. */
  status: string;
  /** Files: stored bytes of all committed versions. Folders: 0 (computed at read time). */
  size: number;
  version_count: number;
  latest_version_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface OpsTable {
  vault_id: string;
  seq: number;
  op_id: string;
  author_user_id: string;
  type: string;
  object_id: string;
  /** canonicalJson of the signed Operation. */
  body: string;
  received_at: number;
  /** UTF-8 bytes of `body` (0006: pull pages stop at a byte cap; the owner's storage counts them). */
  body_bytes: Generated<number>;
}

export interface BlobsTable {
  id: string;
  vault_id: string;
  uploader_user_id: string;
  /** The vault owner, whose allowance pays for it. */
  charged_user_id: string;
  is_cloud: DbBool;
  stored_size: number;
  chunk_count: number;
  /** 'reserved' | 'committed'. */
  status: string;
  node_id: string | null;
  version_id: string | null;
  created_at: number;
  /** A reservation not committed by then stops counting and is purged. */
  expires_at: number;
  /** An imported version's signed chunk hashes (JSON list of hex), awaiting its bytes (SYNC_SPEC R93); else null. */
  import_hashes?: string | null;
}

/** A vault's history imported from elsewhere, page by page (SYNC_SPEC R91). */
export interface VaultImportsTable {
  vault_id: string;
  user_id: string;
  /** 'IN_PROGRESS' | 'DONE'. */
  status: string;
  next_seq: number;
  /** This server's id for the vault creator's membership until the history names its own (R92); then null. */
  creator_membership_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface BlobChunksTable {
  blob_id: string;
  idx: number;
  size: number;
  /** Lower-case hex. */
  sha256: string;
}

/** A permanent file version on its way to Arweave (docs/SYNC_SPEC.md R34-R37). */
export interface StorageTransactionsTable {
  id: string;
  vault_id: string;
  file_id: string;
  version_id: string;
  blob_id: string;
  uploader_user_id: string;
  /** Stored bytes (ciphertext for private vaults). */
  size: number;
  /** StorageTxStatus. */
  status: string;
  data_item_id: string | null;
  /** The bundle's Arweave transaction id (storage_bundles.tx_id). */
  tx_id: string | null;
  /** Winston, decimal. */
  reward: string | null;
  /** Public vaults only: the File-Name and Content-Type tags (clear in the ops already). */
  public_name: string | null;
  content_type: string | null;
  /** Failed gateway attempts in a row, for the backoff; next try not before `next_attempt_at` (ms). */
  attempts: number;
  next_attempt_at: number;
  created_at: number;
  updated_at: number;
  /** 'version' (a file version, R34) or 'history' (a run of the vault's log, R84; migration 0010). */
  kind: Generated<StorageTxKind>;
  /** History runs: the first and last seq of the run; null for versions. */
  seq_from: Generated<number | null>;
  seq_to: Generated<number | null>;
  /**
   * Kinds 'nft' and 'collection' (R137; migration 0021): the item's plan as JSON (NftItemPlan,
   * server/arweave/nftItems.ts); null for versions and history runs.
   */
  nft_plan: Generated<string | null>;
}

/** 'nft' and 'collection': an Atomic NFT's or a collection's data item (SYNC_SPEC R137). */
export type StorageTxKind = 'version' | 'history' | 'nft' | 'collection';

/** A signed bundle transaction: its header JSON (without data) and the blob store key of its data. */
export interface StorageBundlesTable {
  tx_id: string;
  header: string;
  data_key: string;
  created_at: number;
  /** Chunks of the data, from the first, the gateway accepted (R66a); 0 until the header is posted. */
  chunks_accepted: Generated<number>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  opaque_logins: OpaqueLoginsTable;
  email_tokens: EmailTokensTable;
  mfa_challenges: MfaChallengesTable;
  reauth_tokens: ReauthTokensTable;
  server_secrets: ServerSecretsTable;
  notifications: NotificationsTable;
  wallet_challenges: WalletChallengesTable;
  support_reports: SupportReportsTable;
  vaults: VaultsTable;
  memberships: MembershipsTable;
  nodes: NodesTable;
  ops: OpsTable;
  blobs: BlobsTable;
  blob_chunks: BlobChunksTable;
  storage_transactions: StorageTransactionsTable;
  storage_bundles: StorageBundlesTable;
  invitation_mails: InvitationMailsTable;
  note_drafts: NoteDraftsTable;
  vault_imports: VaultImportsTable;
  admin_actions: AdminActionsTable;
  rate_limit_counters: RateLimitCountersTable;
  ledger_entries: LedgerEntriesTable;
  ledger_balances: LedgerBalancesTable;
  ledger_head: LedgerHeadTable;
  billing_details: BillingDetailsTable;
  invoices: InvoicesTable;
  claims: ClaimsTable;
  organisations: OrganisationsTable;
  organisation_members: OrganisationMembersTable;
  referral_rewards: ReferralRewardsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  api_keys: ApiKeysTable;
}

/** Each account's API key (migration 0022, issue 24): its hash only, and the account's usage. */
export interface ApiKeysTable {
  user_id: string;
  /** SHA-256 hex of the key (hashToken with the 'api-key' scope). */
  key_hash: string;
  /** The key's last 4 characters. */
  hint: string;
  created_at: number;
  /** Start (epoch ms, UTC) of the period `used` counts in. */
  period_start: number;
  used: Generated<number>;
  total: Generated<number>;
}

/** Referral rewards (migration 0020, SYNC_SPEC R133): one per referred account, counted once. */
export interface ReferralRewardsTable {
  referred_user_id: string;
  referrer_user_id: string;
  created_at: number;
}

/** Organisations (migration 0019, SYNC_SPEC R124-R127). */
export interface OrganisationsTable {
  id: string;
  name: string;
  subdomain: string | null;
  /** 'none' | 'pending' | 'done' (R125). */
  subdomain_status: string;
  /** A data URL (R124 checks it). */
  logo: string | null;
  primary_color: string | null;
  secondary_color: string | null;
  owner_user_id: string;
  created_at: number;
  updated_at: number;
}

/** Who belongs to which organisation (migration 0019): one row per account at most. */
export interface OrganisationMembersTable {
  organisation_id: string;
  user_id: string;
  /** 'OWNER' (an admin) or 'MEMBER'. */
  role: string;
  invited_by_user_id: string | null;
  created_at: number;
}

/** Claims of $U to outside addresses (migration 0018, SYNC_SPEC R120); `id` is the ledger entry's. */
export interface ClaimsTable {
  id: string;
  user_id: string;
  seq: number;
  address: string;
  /** Millionths of a U, decimal text. */
  amount: string;
  /** 'open' until the operator pays it out, then 'settled'. */
  status: string;
  tx_id: string | null;
  created_at: number;
  settled_at: number | null;
}

/** Invoices issued at checkout (migration 0016, SYNC_SPEC R114): amounts in minor units of `currency`. */
export interface InvoicesTable {
  id: string;
  number: string;
  user_id: string;
  plan_id: string;
  currency: string;
  quantity: number;
  coupon: string | null;
  subtotal: number;
  discount: number;
  total_tax: number;
  total: number;
  /** JSON of InvoiceLine[]. */
  lines: string;
  /** 'open' or 'paid'. */
  status: string;
  created_at: number;
  /** 'subscription' or 'topup' (migration 0017). */
  kind: string;
  /** For a top-up: 'permanent' or 'cloud'. */
  topup_storage: string | null;
  /** For a top-up: GB (10^9 bytes) bought. */
  topup_gb: number | null;
  /** Milliseconds; null while open. */
  paid_at: number | null;
}

/** Each account's billing details (migration 0016, SYNC_SPEC R112); optional fields are ''. */
export interface BillingDetailsTable {
  user_id: string;
  name: string;
  company_name: string;
  company_vat: string;
  country: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  updated_at: number;
}

/** The U token's chain (migration 0015, SYNC_SPEC R105): one row per entry, in seq order. */
export interface LedgerEntriesTable {
  seq: number;
  id: string;
  /** LedgerEntryKind. */
  kind: string;
  from_address: string | null;
  from_key: string | null;
  to_address: string;
  /** Millionths of a U, decimal. */
  amount: string;
  reason: string | null;
  prev: string;
  /** ledgerEntryHash of this entry (the next one's prev). */
  hash: string;
  signature: string;
  created_at: number;
}

/** Each address's balance after the head entry (millionths of a U, decimal); absent: 0. */
export interface LedgerBalancesTable {
  address: string;
  balance: string;
}

/** The one row (id 1) every append locks first: the chain's newest seq and hash. */
export interface LedgerHeadTable {
  id: number;
  seq: number;
  hash: string;
}

/** One invitation e-mail sent (an invitation or a resend), for the hourly limits (MemberService). */
export interface InvitationMailsTable {
  id: string;
  vault_id: string;
  invitee_user_id: string;
  sent_at: number;
}

/** note.draft operations accepted per note and base version, for the draft limit (SYNC_SPEC R63). */
export interface NoteDraftsTable {
  vault_id: string;
  note_id: string;
  base_version_id: string;
  count: number;
  /** Characters of the drafts' updates (base64url, so bytes too). */
  bytes: number;
}

/** Every table, for tests that count rows. */
export const TABLES = [
  'users',
  'sessions',
  'opaque_logins',
  'email_tokens',
  'mfa_challenges',
  'reauth_tokens',
  'server_secrets',
  'support_reports',
  'notifications',
  'wallet_challenges',
  'vaults',
  'memberships',
  'nodes',
  'ops',
  'blobs',
  'blob_chunks',
  'invitation_mails',
  'note_drafts',
  'admin_actions',
] as const satisfies readonly (keyof Database)[];

/** Webhooks (migration 0023, issue 24): one per account, with the secret its deliveries are signed with. */
export interface WebhooksTable {
  id: string;
  user_id: string;
  url: string;
  /** `whsec_` and base64: Standard Webhooks' form, shown to the user once. */
  secret: string;
  created_at: number;
}

/** One attempt of one event (migration 0023): queued while `attempted_at` is null, a log entry after. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  user_id: string;
  /** WebhookEvent. */
  event: string;
  /** The Standard Webhooks `webhook-id`: the same across an event's retries. */
  event_id: string;
  /** The JSON body sent (WebhookPayload). */
  payload: string;
  /** 1 for the first try, then each retry. */
  attempt: number;
  /** The URL it was sent to (the webhook's at the time); null until attempted. */
  url: string | null;
  status_code: number | null;
  /** The receiver's answer or what went wrong, cut to WEBHOOK_LOG_BODY_MAX; null until attempted. */
  response_body: string | null;
  /** 1 when the receiver answered 2xx. */
  delivered: Generated<DbBool>;
  created_at: number;
  /** Not attempted before (ms); also the claim's lease while an attempt runs. */
  next_attempt_at: number;
  attempted_at: number | null;
}
