import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/Database';

/**
 * Writes an invoice for `userId` straight into the database, as checkout would issue it, with the
 * status given: what the claims tests need (R120 asks for a paid invoice) without going through
 * checkout and the operator's invoice-paid command, which other suites test.
 */
export async function insertInvoice(db: Kysely<Database>, userId: string, status: 'open' | 'paid', now = Date.now()): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto('invoices')
    .values({
      id,
      number: `TEST-${id.slice(0, 8)}`,
      user_id: userId,
      plan_id: 'boulder',
      currency: 'usd',
      quantity: 1,
      coupon: null,
      subtotal: 1000,
      discount: 0,
      total_tax: 167,
      total: 1000,
      lines: '[]',
      status,
      created_at: now,
      kind: 'subscription',
      topup_storage: null,
      topup_gb: null,
      paid_at: status === 'paid' ? now : null,
    })
    .execute();
  return id;
}
