/**
 * Referrals (issue 22; spec 001 sections 2, 5 and 9; SYNC_SPEC R132-R134): the caller's referral
 * link and rewards, 'Invite now' e-mails, and the reward itself, earned when a referred account
 * verifies its e-mail for the first time: 100 MB of permanent storage for the referrer
 * (AllowanceService adds it), at most 10 times, each referred account counted once.
 */
import { insertNotificationRow } from './notificationRows';
import { ApiError } from '../../src/protocol/errors';
import { REFERRAL_LIMITS, type ReferralSummary } from '../../src/protocol/referrals';
import { isUniqueViolation } from '../db/isUniqueViolation';
import type { MailPort } from '../mail/MailPort';
import { referralMail } from '../mail/messages';
import type { Clock } from './Clock';
import type { NotificationService } from './NotificationService';
import type { NotifiedRow } from './ops/OpContext';
import type { Db } from './vaultRows';

export interface ReferralLog {
  error(details: object, message: string): void;
}

export class ReferralService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: MailPort,
    private readonly notifications: Pick<NotificationService, 'deliver'>,
    private readonly publicUrl: string,
    private readonly log: ReferralLog,
  ) {}

  /** GET /referrals. */
  async summary(userId: string): Promise<ReferralSummary> {
    const user = await this.db.selectFrom('users').select('referral_id').where('id', '=', userId).executeTakeFirstOrThrow();
    const rewarded = await referralRewardsOf(this.db, userId);
    return { referralId: user.referral_id, rewarded, left: Math.max(0, REFERRAL_LIMITS.MAX_REWARDS - rewarded) };
  }

  /** POST /referrals: the referral link to each address; no more addresses than rewards are left (R134). */
  async invite(userId: string, referrerEmail: string, emails: string[]): Promise<number> {
    const { referralId, left } = await this.summary(userId);
    const unique = [...new Set(emails)];
    if (unique.length > left) {
      const message = left === 0 ? 'You have had all 10 referral rewards.' : `You have ${left} referral reward${left === 1 ? '' : 's'} left: invite at most ${left} ${left === 1 ? 'person' : 'people'}.`;
      throw new ApiError('VALIDATION_FAILED', message, [{ path: 'emails', message }]);
    }
    if (unique.includes(referrerEmail.toLowerCase())) {
      const message = 'Invite other people: your own address cannot earn a reward.';
      throw new ApiError('VALIDATION_FAILED', message, [{ path: 'emails', message }]);
    }
    const link = `${this.publicUrl}/signup/?referrerId=${encodeURIComponent(referralId)}`;
    let sent = 0;
    for (const to of unique) {
      try {
        await this.mailer.send(referralMail({ to, referrerEmail, link }));
        sent += 1;
      } catch (error) {
        this.log.error({ err: error }, 'referral e-mail failed');
      }
    }
    if (sent === 0) throw new ApiError('INTERNAL', 'The invitations could not be sent. Please try again later.');
    return sent;
  }

  /**
   * R133: `userId` has just verified its e-mail for the first time. If it signed up with a
   * referral link and its referrer has had fewer than 10 rewards, the referrer earns one, with a
   * REFERRAL_REWARD notification. In one transaction, after the referrer's row lock, so two
   * verifications at once cannot make an eleventh reward; a second call for the same account
   * changes nothing.
   */
  async rewardVerifiedSignup(userId: string): Promise<void> {
    const now = this.clock.now();
    const notified: NotifiedRow[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select(['referrer_id']).where('id', '=', userId).executeTakeFirst();
        const referrerId = user?.referrer_id;
        if (!referrerId || referrerId === userId) return;
        // The referrer's row lock (a no-op update, portable to SQLite) orders concurrent rewards.
        await trx.updateTable('users').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', referrerId).execute();
        if ((await referralRewardsOf(trx, referrerId)) >= REFERRAL_LIMITS.MAX_REWARDS) return;
        const already = await trx.selectFrom('referral_rewards').select('referred_user_id').where('referred_user_id', '=', userId).executeTakeFirst();
        if (already) return;
        await trx.insertInto('referral_rewards').values({ referred_user_id: userId, referrer_user_id: referrerId, created_at: now }).execute();
        notified.push(
          await insertNotificationRow(trx, { recipientId: referrerId, vaultId: null, event: 'REFERRAL_REWARD', objectType: 'account', objectId: userId, fromUserId: userId, now }),
        );
      });
    } catch (error) {
      // Verified twice at once: the other verification counted it.
      if (!isUniqueViolation(error)) throw error;
    }
    await this.notifications.deliver(notified);
  }
}

/** Rewards `userId` has had as a referrer: the count the limit and the allowance (R133) both read. */
export async function referralRewardsOf(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('referral_rewards')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('referrer_user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
