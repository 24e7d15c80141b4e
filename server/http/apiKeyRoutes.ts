/**
 * What a request made with the account's API key may call (issue 24; docs/decisions.md, "The
 * developer API (issue 24): API keys"): what a script of the user's own needs to list, upload and
 * download with its own keys, as the `cairn` command does: read the account, list its vaults, pull
 * and push a vault's operations, read members, read storage figures, and move encrypted chunks.
 * Every other route answers 403 to a key before its input is read: a key cannot rotate itself,
 * change the password, two-factor, sessions, billing or webhooks, invite people, or send tokens.
 * A list of what is allowed, as passwordlessRoutes.ts is, so a route added later is closed to keys
 * until someone decides otherwise.
 *
 * A key authenticates the request, never the change: every operation posted with it is still
 * signed by the user's device keys (derived from the recovery phrase), and role and vault checks
 * apply inside each route as for a session.
 */
export const API_KEY_ROUTES: ReadonlySet<string> = new Set([
  // The account (read only): its public keys and sealed key material, for the script's crypto.
  'GET /api/account',
  // The vaults and their signed operations (pull and push).
  'GET /api/vaults',
  'GET /api/vaults/:vaultId/ops',
  'POST /api/vaults/ops',
  // Members (read only): the script needs them to open shared vaults' keys.
  'GET /api/vaults/:vaultId/members',
  'GET /api/memberships/:membershipId',
  // Storage figures and the uploads' storage transactions.
  'GET /api/storage',
  'GET /api/storage/transactions',
  'GET /api/vaults/:vaultId/storage',
  // Encrypted chunks: announce an upload, its status (to resume it), and the chunks both ways.
  'POST /api/vaults/:vaultId/blobs',
  'GET /api/vaults/:vaultId/blobs/:blobId',
  'GET /api/vaults/:vaultId/blobs/:blobId/chunks/:index',
  'PUT /api/vaults/:vaultId/blobs/:blobId/chunks/:index',
  // Many small files at once: a group announced, and its chunks sent, in one request each.
  'POST /api/vaults/:vaultId/blobs/batch',
  'POST /api/vaults/:vaultId/blobs/chunks',
]);

export const API_KEY_REFUSAL = 'An API key cannot do this: sign in to Cairn to do it';

/** Whether a request made with an API key may call `method url` (the route's registered pattern). */
export function allowsApiKey(method: string, url: string): boolean {
  return API_KEY_ROUTES.has(`${method} ${url}`);
}
