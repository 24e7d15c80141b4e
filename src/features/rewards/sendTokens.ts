/**
 * Sending $U (SYNC_SPEC R108): the transfer is signed on the device by the crypto worker (the
 * account's Ed25519 key never leaves it) over `transferSigningPayload`, then posted. Every refusal
 * becomes a text for the field it concerns, or for the form.
 */
import { type ApiClient, NetworkError } from '../../platform/apiClient';
import { ApiError } from '../../protocol/errors';
import { transferSigningPayload, TransferResult } from '../../protocol/ledger';
import { SEND_TEXTS } from '../../domain/tokenRules';

export interface TransferSigner {
  signPayload(payload: unknown): Promise<string>;
}

export interface SendRequest {
  /** The transfer's id: a retry of one whose answer was lost reuses it, so it is recorded once (R108 409). */
  id: string;
  from: string;
  fromKey: string;
  to: string;
  /** Millionths of a U. */
  amount: bigint;
}

/** Signs and posts one transfer. */
export async function sendTokens(api: ApiClient, signer: TransferSigner, request: SendRequest): Promise<TransferResult> {
  const unsigned = { id: request.id, from: request.from, fromKey: request.fromKey, to: request.to, amount: request.amount.toString() };
  const signature = await signer.signPayload(transferSigningPayload(unsigned));
  return api.post('/utoken/transfers', { ...unsigned, signature }, TransferResult);
}

export interface SendRefusal {
  field: 'address' | 'amount' | 'form';
  text: string;
}

/** Said when a retry finds its transfer already in the ledger: the first attempt went through. */
export const ALREADY_SENT_TEXT = 'This transfer went through before the connection was lost: it is sent once, not twice.';

/**
 * What the user is told when a send is refused (spec 002 section 5's texts where it has them).
 * `isRetry`: the same transfer (same id) was posted before without an answer.
 */
/**
 * The refusals about one of the two fields, the same for a send and a claim (both take an address
 * and an amount of the balance); null for any other code.
 */
export function fieldRefusalOf(error: ApiError): SendRefusal | null {
  switch (error.code) {
    case 'AMOUNT_EXCEEDS_BALANCE':
      return { field: 'amount', text: SEND_TEXTS.overBalance };
    case 'VALIDATION_FAILED':
      // The form checks both fields first; the server's details say which one it still refused.
      return error.details?.some((d) => d.path === 'amount') ? { field: 'amount', text: SEND_TEXTS.badAmount } : { field: 'address', text: SEND_TEXTS.badAddress };
    case 'BAD_REQUEST':
      // "No Cairn account has this address." or the sender's own (a claim: a Cairn address): about the address.
      return { field: 'address', text: error.message };
    default:
      return null;
  }
}

export function sendRefusalOf(error: unknown, isRetry = false): SendRefusal {
  if (error instanceof NetworkError) {
    return {
      field: 'form',
      text: error.kind === 'timeout' ? 'The server took too long to answer. Send again to finish: it is recorded once.' : "You're offline. Sending $U needs a connection.",
    };
  }
  if (!(error instanceof ApiError)) return { field: 'form', text: 'There was an error.' };
  const aboutField = fieldRefusalOf(error);
  if (aboutField) return aboutField;
  switch (error.code) {
    case 'CONFLICT':
      return { field: 'form', text: isRetry ? ALREADY_SENT_TEXT : error.message };
    case 'TOKEN_SEND_NOT_ALLOWED':
      return { field: 'form', text: error.message };
    case 'RATE_LIMITED':
      return { field: 'form', text: 'Too many sends in a minute. Wait a minute and try again.' };
    case 'READ_ONLY':
      return { field: 'form', text: 'Cairn is read-only at the moment: nothing can be sent.' };
    default:
      return { field: 'form', text: error.message || 'There was an error.' };
  }
}
