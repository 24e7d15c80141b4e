/**
 * Import by network transaction (spec 000 sections 2, 5 and 8): what the modal accepts, and how
 * the gateway's tags become the imported file's name and type. The tags are anyone's words (any
 * Arweave item can be imported), so they are cleaned before they name a file in the vault.
 */
import { ArweaveTxId } from '../protocol/arweave';
import { VAULT_LIMITS } from '../protocol/vaults';

/** Spec 000 section 5: the value must be exactly 43 characters (32 bytes as base64url). */
export const TX_ID_LENGTH = 43;

export const TX_ID_LENGTH_TEXT = `The transaction id must be exactly ${TX_ID_LENGTH} characters.`;
export const TX_ID_ALPHABET_TEXT = 'A transaction id holds only letters, digits, - and _.';

/** Spec 000 section 8. */
export const IMPORT_FAILED_TEXT = 'Failed to import files';
export const IMPORT_CANCELLED_TEXT = 'Importing cancelled';

const TX_ID_ALPHABET = /^[A-Za-z0-9_-]*$/;

/**
 * The field's error for a typed id, or null when it can be submitted. An empty field shows no
 * error (nothing typed yet), but cannot be submitted either: see `isImportableTxId`.
 */
export function txIdError(value: string): string | null {
  if (value === '') return null;
  if (!TX_ID_ALPHABET.test(value)) return TX_ID_ALPHABET_TEXT;
  if (value.length !== TX_ID_LENGTH) return TX_ID_LENGTH_TEXT;
  return null;
}

/** Submittable exactly when the server's own edge schema for the id (GET /arweave/tx/:txId) accepts it. */
export function isImportableTxId(value: string): boolean {
  return ArweaveTxId.safeParse(value).success;
}

/**
 * The imported file's name from the item's File-Name tag (already URI-decoded), else the tx id.
 * Path separators and control characters go (a name is never a path); leading dots go too, since
 * uploads skip dot entries (spec 000 section 5) and the file would silently not be added.
 */
export function importedFileName(tagName: string | null, txId: string): string {
  const cleaned = (tagName ?? '')
    .replace(/[\u0000-\u001f\u007f/\\]/g, '')
    .trim()
    .replace(/^\.+/, '')
    .trim()
    .slice(0, VAULT_LIMITS.NAME_MAX);
  return cleaned === '' ? txId : cleaned;
}

/** The type/subtype of a Content-Type header, lower-cased; anything else is octet-stream. */
export function importedMimeType(contentType: string | null): string {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(essence) && essence.length <= VAULT_LIMITS.MIME_MAX ? essence : 'application/octet-stream';
}

/** Decodes the URI-encoded name header; a malformed one counts as absent. */
export function decodeFileNameHeader(header: string | null): string | null {
  if (header === null) return null;
  try {
    return decodeURIComponent(header);
  } catch {
    return null;
  }
}
