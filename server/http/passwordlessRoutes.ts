/**
 * What a passwordless (airdrop) session may call (spec 001 section 4, Airdrop). An airdrop link
 * lets its holder into one vault: read it, upload within the link's allowance when the role
 * allows, chat as a CONTRIBUTOR, and keep the session, its notifications and its own uploads'
 * statuses. Every other signed-in route answers 403 for such a session, before its input is even
 * read: no vaults of its own, no look-ups of other people, no invitations, no account changes.
 * A list of what is allowed, not of what is refused, so a route added later is closed to links
 * until someone decides otherwise. Role and vault checks still apply inside each route.
 */
export const PASSWORDLESS_ROUTES: ReadonlySet<string> = new Set([
  // The session itself and its account (read only).
  'GET /api/auth/session',
  'POST /api/auth/logout',
  'GET /api/account',
  // The vault it was airdropped into (membership rules apply: other vaults answer 404).
  'GET /api/vaults',
  'POST /api/vaults/ops',
  'GET /api/vaults/:vaultId/ops',
  'GET /api/vaults/:vaultId/members',
  'GET /api/memberships/:membershipId',
  'GET /api/vaults/:vaultId/storage',
  // Its history on the network (SYNC_SPEC R84), shown in the vault info drawer.
  'GET /api/vaults/:vaultId/history-items',
  // Its NFTs on the network (SYNC_SPEC R140).
  'GET /api/vaults/:vaultId/nfts/chain',
  'POST /api/vaults/:vaultId/blobs',
  'GET /api/vaults/:vaultId/blobs/:blobId',
  'DELETE /api/vaults/:vaultId/blobs/:blobId',
  'GET /api/vaults/:vaultId/blobs/:blobId/chunks/:index',
  'PUT /api/vaults/:vaultId/blobs/:blobId/chunks/:index',
  // Many small files at once (a group announced, then its chunks in one body).
  'POST /api/vaults/:vaultId/blobs/batch',
  'POST /api/vaults/:vaultId/blobs/chunks',
  // Importing a network transaction is an upload (SYNC_SPEC R42-R43).
  'GET /api/arweave/tx/:txId',
  // Its own notifications, uploads' statuses and storage figures (no allowance of its own: 0).
  'GET /api/notifications',
  'PATCH /api/notifications',
  'PATCH /api/notifications/:id',
  'DELETE /api/notifications',
  'DELETE /api/notifications/:id',
  'GET /api/storage',
  'GET /api/storage/transactions',
  // An error report from the error page, which any visitor may send.
  'POST /api/support',
]);

export const PASSWORDLESS_REFUSAL = 'An airdrop link gives access to its vault only: sign up for an account to do this';

/** Whether a passwordless session may call `method url` (the route's registered pattern). */
export function allowsPasswordless(method: string, url: string): boolean {
  return PASSWORDLESS_ROUTES.has(`${method} ${url}`);
}
