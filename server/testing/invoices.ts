import type { Kysely } from 'kysely';
import type { Database } from '../db/Database';

/**
 * Marks the invoice with this number paid, as the operator's `npm run admin -- invoice-paid` will
 * (status 'paid', paid_at), for tests written before BillingService.markPaid: only the row, so a
 * subscription's plan does not change here. Answers whether a row was updated.
 */
export async function markInvoicePaidForTest(db: Kysely<Database>, number: string, paidAt = Date.now()): Promise<boolean> {
  const result = await db.updateTable('invoices').set({ status: 'paid', paid_at: paidAt }).where('number', '=', number).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
