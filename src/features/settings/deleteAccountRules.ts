/**
 * The delete-account refusal (docs/SYNC_SPEC.md R60): the server names, by id, the vaults that
 * other members use and that have no other owner; the device names them from its own records,
 * since the server knows no private vault's name.
 */
import { DELETE_ACCOUNT_OWNED_VAULT } from '../../protocol/auth';
import { ApiError } from '../../protocol/errors';

/** The vault ids of a refused deletion, or null when `error` is something else. */
export function blockingVaultIds(error: unknown): string[] | null {
  if (!(error instanceof ApiError) || error.code !== 'CONFLICT' || !error.details) return null;
  const ids = error.details.filter((d) => d.path === DELETE_ACCOUNT_OWNED_VAULT).map((d) => d.message);
  return ids.length > 0 ? ids : null;
}

/** What the modal says, naming each vault ('a vault not on this device' for those it lacks). */
export function deleteAccountBlockedText(names: (string | null)[]): string {
  const quoted = names.map((name) => (name ? `'${name}'` : 'a vault not on this device'));
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
  const them = quoted.length === 1 ? 'it' : 'each of them';
  return `Your account cannot be deleted yet: you are the only owner of ${list}, which other members still use. Make one of them an owner of ${them}, or remove them, then try again.`;
}
