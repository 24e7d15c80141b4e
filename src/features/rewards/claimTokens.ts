/**
 * Claiming $U to an outside Arweave address (SYNC_SPEC R120): signed on the device by the crypto
 * worker over `claimSigningPayload` (a different purpose from a transfer, so neither can pass for
 * the other), then posted. The original only logged claim errors; Cairn tells the user.
 */
import { type ApiClient, NetworkError } from '../../platform/apiClient';
import { ClaimList, ClaimResult } from '../../protocol/claims';
import { ApiError } from '../../protocol/errors';
import { claimSigningPayload } from '../../protocol/ledger';
import { fieldRefusalOf, type SendRefusal, type SendRequest, type TransferSigner } from './sendTokens';

export async function claimTokens(api: ApiClient, signer: TransferSigner, request: SendRequest): Promise<ClaimResult> {
  const unsigned = { id: request.id, from: request.from, fromKey: request.fromKey, to: request.to, amount: request.amount.toString() };
  const signature = await signer.signPayload(claimSigningPayload(unsigned));
  return api.post('/claims', { ...unsigned, signature }, ClaimResult);
}

/** Whether the caller may claim (the server says: a paid invoice), and their claims. */
export function fetchClaims(api: ApiClient): Promise<ClaimList> {
  return api.get('/claims', ClaimList);
}

/** What the user is told when a claim is refused. */
export function claimRefusalOf(error: unknown): SendRefusal {
  if (error instanceof NetworkError) {
    return { field: 'form', text: error.kind === 'timeout' ? 'The server took too long to answer. Claim again to finish: it is recorded once.' : "You're offline. Claiming $U needs a connection." };
  }
  if (!(error instanceof ApiError)) return { field: 'form', text: 'The claim could not be made. Try again.' };
  const aboutField = fieldRefusalOf(error);
  if (aboutField) return aboutField;
  switch (error.code) {
    case 'RATE_LIMITED':
      return { field: 'form', text: 'Too many claims in a minute. Wait a minute and try again.' };
    default:
      return { field: 'form', text: error.message || 'The claim could not be made. Try again.' };
  }
}
