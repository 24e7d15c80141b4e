/**
 * Referrals (spec 001 sections 2, 5 and 9; docs/SYNC_SPEC.md R132-R134): a user's link
 * `/signup/?referrerId={referralId}` and 'Invite now' e-mails; the referrer's allowance grows by
 * REFERRAL_LIMITS.REWARD_BYTES for each referred account's first verified sign-up, at most
 * REFERRAL_LIMITS.MAX_REWARDS times.
 */
import { z } from 'zod';
import { Email } from './primitives';

export const REFERRAL_LIMITS = {
  /** 100 MB per referral (spec 001 section 9), decimal like the plans' storage figures. */
  REWARD_BYTES: 100_000_000,
  MAX_REWARDS: 10,
} as const;

/** GET /referrals: the caller's referral id, how many rewards they have had and how many are left. */
export const ReferralSummary = z.strictObject({
  referralId: z.string(),
  rewarded: z.number().int().min(0),
  left: z.number().int().min(0),
});
export type ReferralSummary = z.infer<typeof ReferralSummary>;

/** POST /referrals: e-mails the caller's referral link to each address (at most the rewards left; rate-limited). */
export const ReferralInviteRequest = z.strictObject({
  emails: z.array(Email).min(1).max(REFERRAL_LIMITS.MAX_REWARDS),
});
export type ReferralInviteRequest = z.infer<typeof ReferralInviteRequest>;

export const ReferralInviteResponse = z.strictObject({ sent: z.number().int().min(0) });
export type ReferralInviteResponse = z.infer<typeof ReferralInviteResponse>;
