import type { CryptoApi } from '../../../workers/crypto/CryptoApi';
import type { SignedRequest } from '../../protocol/auth';

/**
 * A SignedRequest (src/protocol/auth.ts) for `purpose`: the account key itself authorises the
 * change, so a session cookie alone is not enough to delete an account or turn off two-factor.
 */
export async function signRequest(crypto: Pick<CryptoApi, 'signPayload'>, userId: string, purpose: string): Promise<SignedRequest> {
  const signedAt = Date.now();
  const signature = await crypto.signPayload({ purpose, userId, signedAt });
  return { signedAt, signature };
}
