/**
 * Issue 21: invoices are for a subscription or for a storage top-up (SYNC_SPEC R115-R119), and
 * record when the operator marked them paid. A paid top-up invoice is what adds storage to an
 * account's allowance (AllowanceService.extrasOf reads them), so the allowance is always the sum of
 * what was bought and never a counter that could drift from the invoices.
 * Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  // 'subscription' for every invoice issued before this migration (checkout only issued those).
  await db.schema.alterTable('invoices').addColumn('kind', 'text', (c) => c.notNull().defaultTo('subscription')).execute();
  /** For a top-up: 'permanent' or 'cloud'. */
  await db.schema.alterTable('invoices').addColumn('topup_storage', 'text').execute();
  /** For a top-up: how many GB (10^9 bytes) it buys. */
  await db.schema.alterTable('invoices').addColumn('topup_gb', 'integer').execute();
  /** When the operator marked it paid (milliseconds); null while open. */
  await db.schema.alterTable('invoices').addColumn('paid_at', 'bigint').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('invoices').dropColumn('paid_at').execute();
  await db.schema.alterTable('invoices').dropColumn('topup_gb').execute();
  await db.schema.alterTable('invoices').dropColumn('topup_storage').execute();
  await db.schema.alterTable('invoices').dropColumn('kind').execute();
}
