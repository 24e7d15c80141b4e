/**
 * Issue 22: referral rewards (spec 001 sections 2, 5 and 9; SYNC_SPEC R132-R134). One row per
 * referred account whose first e-mail verification earned its referrer 100 MB: the primary key
 * makes a reward count once, whatever happens twice. Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('referral_rewards')
    .addColumn('referred_user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('referrer_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('referral_rewards_referrer').on('referral_rewards').columns(['referrer_user_id', 'created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('referral_rewards').execute();
}
