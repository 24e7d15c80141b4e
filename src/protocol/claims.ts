/**
 * Claims of the U token (docs/SYNC_SPEC.md R120): a user with a paid invoice withdraws $U to an
 * outside Arweave address. The device signs a 'claim' ledger entry (`claimSigningPayload` in
 * ./ledger) that takes the amount out of its balance for good (a claim credits nobody in the
 * ledger, so every balance stays a replay any client can check); the operator then pays it out on
 * the network and records the transaction id (`npm run admin -- claim-settled ID TXID`).
 */
import { z } from 'zod';
import { LedgerEntry, MicroAmount, MicroBalance, TransferRequest } from './ledger';
import { Id } from './primitives';

/** POST /claims: a claim signed on the device; `to` is the outside address. Same fields as a transfer. */
export const ClaimRequest = TransferRequest;
export type ClaimRequest = z.infer<typeof ClaimRequest>;

export const ClaimStatus = z.enum(['open', 'settled']);
export type ClaimStatus = z.infer<typeof ClaimStatus>;

export const Claim = z.strictObject({
  /** The ledger entry's id. */
  id: Id,
  address: z.string(),
  amount: MicroAmount,
  status: ClaimStatus,
  /** The network transaction that paid it out; null while open (spec 002 section 7: POST /claims answers a txId). */
  txId: z.string().nullable(),
  createdAt: z.number().int().nonnegative(),
});
export type Claim = z.infer<typeof Claim>;

/** GET /claims: whether the caller may claim (a paid invoice, R120) and their claims, newest first. */
export const ClaimList = z.strictObject({ eligible: z.boolean(), items: z.array(Claim) });
export type ClaimList = z.infer<typeof ClaimList>;

/** POST /claims: the claim, its ledger entry and the balance after it. */
export const ClaimResult = z.strictObject({ claim: Claim, entry: LedgerEntry, balance: MicroBalance });
export type ClaimResult = z.infer<typeof ClaimResult>;

/** The texts a claim is refused with (Cairn shows them; the original only logged claim errors). */
export const CLAIM_TEXTS = {
  notEligible: 'Claiming $U needs a paid invoice (a subscription or a storage top-up).',
  cairnAddress: 'This address is a Cairn account: send $U to it with Send instead.',
} as const;
