/**
 * Checkout (issue 21; SYNC_SPEC R112-R114): each account's billing details and the upcoming
 * invoice. Every figure the checkout shows is computed here, from the operator's plans file, so a
 * client cannot price its own plan or invent a discount.
 */
import crypto from 'node:crypto';
import {
  BILLING_TEXTS,
  type BillingDetails,
  type EndSubscriptionResponse,
  Invoice,
  InvoiceLine,
  type InvoiceListQuery,
  type InvoicePage,
  type TopUpQuote,
  type TopUpStorage,
  type UpcomingInvoice,
  VAT_PERCENT,
} from '../../src/protocol/billing';
import { z } from 'zod';
import { isUniqueViolation } from '../db/isUniqueViolation';
import type { InvoicesTable } from '../db/Database';
import { ApiError } from '../../src/protocol/errors';
import { type Coupon, defaultPlanOf, isFreePlan, type Plan, type PlanCurrency, type TopUpPrices } from '../../src/protocol/plans';
import { monthlyPriceOf } from '../../src/domain/planPricing';
import type { AllowanceService } from './AllowanceService';
import type { Clock } from './Clock';
import type { Db } from './vaultRows';
import { type InvoiceIssuer, renderInvoicePdf } from './invoicePdf';

/** What marking an invoice paid did (R115): for the admin log and the command's answer. */
export interface PaidInvoice {
  number: string;
  userId: string;
  kind: 'subscription' | 'topup';
  /** For a subscription: the plan the account is now on. */
  planId: string | null;
}

/**
 * Marks the open invoice `number` paid inside `trx` (R115): status 'paid' and `paid_at`; a
 * subscription's account moves to the invoice's plan in the same transaction, so the plan never
 * changes without a paid invoice nor an invoice is paid without its plan. A top-up only becomes
 * paid: AllowanceService.extrasOf reads paid top-ups. Unknown is NOT_FOUND, already paid CONFLICT,
 * and either changes nothing. Exported for AdminService, which records its action in the same
 * transaction.
 */
export async function markInvoicePaid(trx: Db, number: string, now: number): Promise<PaidInvoice> {
  const row = await trx.selectFrom('invoices').select(['id', 'user_id', 'kind', 'plan_id', 'status']).where('number', '=', number.trim()).executeTakeFirst();
  if (!row) throw new ApiError('NOT_FOUND', `No invoice ${number.trim()}`);
  // The status in the WHERE settles two operators marking it at once: only one update matches.
  const updated = await trx
    .updateTable('invoices')
    .set({ status: 'paid', paid_at: now })
    .where('id', '=', row.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  if (row.status !== 'open' || Number(updated.numUpdatedRows) !== 1) throw new ApiError('CONFLICT', `Invoice ${number.trim()} is already paid`);
  const kind = row.kind === 'topup' ? 'topup' : 'subscription';
  if (kind === 'subscription') await trx.updateTable('users').set({ plan_id: row.plan_id }).where('id', '=', row.user_id).execute();
  return { number: number.trim(), userId: row.user_id, kind, planId: kind === 'subscription' ? row.plan_id : null };
}

/** The operator's coupon with this code for this plan, or null (codes compare without regard to case). */
export function findCoupon(coupons: readonly Coupon[], code: string, planId: string): Coupon | null {
  const wanted = code.trim().toLowerCase();
  return coupons.find((coupon) => coupon.code.toLowerCase() === wanted && (coupon.plans === undefined || coupon.plans.includes(planId))) ?? null;
}

/**
 * The invoice arithmetic, in whole minor units throughout (R114):
 * - subtotal: the plan's monthly price for `quantity` (planPricing.monthlyPriceOf, rounded half up);
 * - discount: `percent_off` of the subtotal rounded half up, or `amount_off` in the currency, never
 *   more than the subtotal (a coupon without an amount in this currency takes nothing off);
 * - total: subtotal minus discount; the VAT is inside it (spec: '20% included'), so the VAT part is
 *   total × 20 / 120 rounded half up, and the rest is the total excluding tax.
 */
export function computeUpcomingInvoice(plan: Plan, currency: PlanCurrency, quantity: number, coupon: Coupon | null): UpcomingInvoice {
  const subtotal = monthlyPriceOf(plan, currency, quantity);
  let discount: UpcomingInvoice['discount'] = null;
  if (coupon) {
    const off = coupon.percent_off !== undefined ? Math.round((subtotal * coupon.percent_off) / 100) : (coupon.amount_off?.[currency] ?? 0);
    discount = { coupon: { name: coupon.code, percent_off: coupon.percent_off ?? null }, amount: Math.min(off, subtotal) };
  }
  return { planId: plan.id, planName: plan.name, currency, quantity, subtotal, discount, ...vatIncluded(subtotal - (discount?.amount ?? 0)) };
}

/**
 * A total with VAT inside it (spec: '20% included'), for every invoice the server issues (R114,
 * R118): the VAT part is total × 20 / 120 rounded half up, and the rest is the total excluding tax.
 */
export function vatIncluded(total: number): { tax_percent: number; total_tax: number; total_excluding_tax: number; total: number } {
  const totalTax = Math.round((total * VAT_PERCENT) / (100 + VAT_PERCENT));
  return { tax_percent: VAT_PERCENT, total_tax: totalTax, total_excluding_tax: total - totalTax, total };
}

/** A top-up's figures (R118): the operator's price per GB of that storage × gb, VAT included. */
export function computeTopUpQuote(prices: TopUpPrices, storage: TopUpStorage, gb: number, currency: PlanCurrency, limitGb: number, boughtGb: number): TopUpQuote {
  const unitAmount = prices[storage === 'permanent' ? 'permanent_gb' : 'cloud_gb'][currency];
  return { storage, gb, currency, unit_amount: unitAmount, subtotal: unitAmount * gb, ...vatIncluded(unitAmount * gb), limitGb, boughtGb };
}

/** The top-up limit's text (spec 000 section 8). */
export const TOPUP_LIMIT_MESSAGE = "You've hit the top up limit";

export class BillingService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly allowances: AllowanceService,
    /** INVOICE_ISSUER and INVOICE_PAYMENT_DETAILS: who issues the invoices and how to pay them. */
    private readonly issuer: InvoiceIssuer = { name: 'Cairn', paymentDetails: [] },
  ) {}

  /** BillingService's own transaction around `markInvoicePaid` (R115). */
  async markPaid(number: string): Promise<PaidInvoice> {
    return this.db.transaction().execute((trx) => markInvoicePaid(trx, number, this.clock.now()));
  }

  /**
   * The caller's invoices, newest first, `limit` a page (R116). `after` is the id of the last
   * invoice of the page before; an id that is not one of the caller's is NOT_FOUND, so another
   * account's ids cannot be probed by paging.
   */
  async listInvoices(userId: string, query: InvoiceListQuery): Promise<InvoicePage> {
    let select = this.db.selectFrom('invoices').selectAll().where('user_id', '=', userId);
    if (query.after !== undefined) {
      const last = await this.db.selectFrom('invoices').select(['id', 'created_at']).where('id', '=', query.after).where('user_id', '=', userId).executeTakeFirst();
      if (!last) throw new ApiError('NOT_FOUND', 'No such invoice.');
      const createdAt = Number(last.created_at);
      // Same millisecond: the id breaks the tie, so no invoice is skipped or shown twice.
      select = select.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', last.id)])]));
    }
    const rows = await select
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit + 1)
      .execute();
    return { data: rows.slice(0, query.limit).map((row) => invoiceOf(row, parseLines(row.lines))), has_more: rows.length > query.limit };
  }

  /** The caller's invoice as a PDF (R116); another account's, or an unknown id, is NOT_FOUND. */
  async invoicePdf(userId: string, invoiceId: string): Promise<{ fileName: string; bytes: Uint8Array }> {
    const row = await this.db.selectFrom('invoices').selectAll().where('id', '=', invoiceId).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw new ApiError('NOT_FOUND', 'No such invoice.');
    const invoice = invoiceOf(row, parseLines(row.lines));
    const bytes = await renderInvoicePdf({
      invoice,
      paidAt: row.paid_at === null ? null : Number(row.paid_at),
      customer: await this.detailsOf(userId),
      issuer: this.issuer,
    });
    // Spec 002 section 9: 'Invoice download file is named from the invoice number'.
    return { fileName: `${invoice.number}.pdf`, bytes };
  }

  /**
   * Ends the caller's subscription (R117): the account returns to the default (free) plan at once.
   * Vaults and members it has stay; past the free plan's limits it cannot add more (R101, R102).
   * On the default plan, or a free one, there is nothing to end (UNPROCESSABLE).
   */
  async endSubscription(userId: string): Promise<EndSubscriptionResponse> {
    const fallback = defaultPlanOf(this.allowances.catalog);
    return this.db.transaction().execute(async (trx) => {
      const current = await this.allowances.planOf(userId, trx);
      if (current.id === fallback.id || isFreePlan(current)) throw new ApiError('UNPROCESSABLE', `You are on ${current.name}: there is no subscription to end.`);
      // null, not the default plan's id: a later plans file's default applies to this account too (R100).
      await trx.updateTable('users').set({ plan_id: null }).where('id', '=', userId).execute();
      return { planId: fallback.id, planName: fallback.name };
    });
  }

  async detailsOf(userId: string): Promise<BillingDetails | null> {
    const row = await this.db.selectFrom('billing_details').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return null;
    return {
      name: row.name,
      companyName: row.company_name,
      companyVat: row.company_vat,
      country: row.country,
      address: row.address,
      city: row.city,
      state: row.state,
      zip: row.zip,
    };
  }

  /** Replaces the account's details (already validated at the edge by `BillingDetails`). */
  async saveDetails(userId: string, details: BillingDetails): Promise<BillingDetails> {
    const row = {
      name: details.name,
      company_name: details.companyName,
      company_vat: details.companyVat,
      country: details.country,
      address: details.address,
      city: details.city,
      state: details.state,
      zip: details.zip,
      updated_at: this.clock.now(),
    };
    await this.db
      .insertInto('billing_details')
      .values({ user_id: userId, ...row })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
      .execute();
    return details;
  }

  /**
   * The upcoming invoice for `planId` (R114). A plan the file does not have is NOT_FOUND; a free
   * plan has nothing to pay (UNPROCESSABLE); a code the operator did not define, or not for this
   * plan, is COUPON_INVALID with the spec's text, so the client shows it and removes the code.
   */
  upcomingInvoice(input: { planId: string; currency: PlanCurrency; quantity: number; coupon?: string | undefined }): UpcomingInvoice {
    const plan = this.allowances.findPlan(input.planId);
    if (!plan) throw new ApiError('NOT_FOUND', 'This server has no such plan.');
    if (isFreePlan(plan)) throw new ApiError('UNPROCESSABLE', `${plan.name} is free: there is nothing to pay.`);
    let coupon: Coupon | null = null;
    if (input.coupon !== undefined) {
      coupon = findCoupon(this.allowances.catalog.coupons ?? [], input.coupon, plan.id);
      if (!coupon) throw new ApiError('COUPON_INVALID', BILLING_TEXTS.couponRejected);
    }
    return computeUpcomingInvoice(plan, input.currency, input.quantity, coupon);
  }

  /**
   * Subscribe by invoice (R114): with billing details saved and both boxes ticked (checked at the
   * edge), records an open invoice for the upcoming invoice's figures and answers it. The plan does
   * NOT change: the operator marks the invoice paid, and only then does the account move. One open
   * invoice per account at a time (CONFLICT), so a double click never issues two.
   */
  async subscribe(userId: string, input: { planId: string; currency: PlanCurrency; quantity: number; coupon?: string | undefined }): Promise<Invoice> {
    const upcoming = this.upcomingInvoice(input);
    if ((await this.allowances.planOf(userId)).id === upcoming.planId) throw new ApiError('UNPROCESSABLE', `You are already on ${upcoming.planName}.`);
    if (!(await this.detailsOf(userId))) throw new ApiError('UNPROCESSABLE', 'Save your billing details first: they go on the invoice.');
    const lines: InvoiceLine[] = [{ description: `${upcoming.planName} (monthly)`, quantity: upcoming.quantity, amount: upcoming.subtotal }];
    if (upcoming.discount) lines.push({ description: `Discount ${upcoming.discount.coupon.name}`, quantity: 1, amount: -upcoming.discount.amount });
    return this.issue(userId, async (trx) => {
      const open = await trx.selectFrom('invoices').select('number').where('user_id', '=', userId).where('status', '=', 'open').where('kind', '=', 'subscription').executeTakeFirst();
      if (open) throw new ApiError('CONFLICT', `Invoice ${open.number} is still open: it must be paid before another subscription.`);
      return {
        plan_id: upcoming.planId,
        currency: upcoming.currency,
        quantity: upcoming.quantity,
        coupon: upcoming.discount?.coupon.name ?? null,
        subtotal: upcoming.subtotal,
        discount: upcoming.discount?.amount ?? 0,
        total_tax: upcoming.total_tax,
        total: upcoming.total,
        lines,
        kind: 'subscription',
        topup_storage: null,
        topup_gb: null,
      };
    });
  }

  /**
   * What the account may still top up (R118): its plan's `topup_gb` (0 without one, or when the
   * operator sells no top-ups) and the GB of its top-up invoices so far, open and paid, both kinds.
   * Read through `db` (the buying transaction, after the account's row is locked).
   */
  private async topUpRoomOf(userId: string, db: Db): Promise<{ limitGb: number; boughtGb: number }> {
    const limitGb = this.allowances.catalog.topup_prices ? ((await this.allowances.limitsOf(userId, db)).topup_gb ?? 0) : 0;
    const { gb } = await db
      .selectFrom('invoices')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('topup_gb'), eb.lit(0)).as('gb'))
      .where('user_id', '=', userId)
      .where('kind', '=', 'topup')
      .executeTakeFirstOrThrow();
    return { limitGb, boughtGb: Number(gb) };
  }

  /**
   * The top-up's figures before buying (R118). TOPUP_LIMIT when the account can buy no more at all
   * (no top-ups on its plan, or its limit used up), so the client shows the top-up limit prompt
   * instead of a form; a request for more than is left is only refused when buying.
   */
  async topUpQuote(userId: string, input: { storage: TopUpStorage; gb: number; currency: PlanCurrency }): Promise<TopUpQuote> {
    const prices = this.allowances.catalog.topup_prices;
    const { limitGb, boughtGb } = await this.topUpRoomOf(userId, this.db);
    if (!prices || boughtGb >= limitGb) throw new ApiError('TOPUP_LIMIT', TOPUP_LIMIT_MESSAGE);
    return computeTopUpQuote(prices, input.storage, input.gb, input.currency, limitGb, boughtGb);
  }

  /**
   * Buy a top-up by invoice (R118): with billing details saved and the terms ticked (checked at the
   * edge), records an OPEN invoice of kind 'topup' for the quote's figures. Storage is added only
   * when the invoice is paid (AllowanceService.extrasOf). Past the plan's top-up limit, counting
   * open and paid top-ups, TOPUP_LIMIT and nothing is issued; the account's row is locked first so
   * two purchases at once are counted one after the other.
   */
  async topUp(userId: string, input: { storage: TopUpStorage; gb: number; currency: PlanCurrency }): Promise<Invoice> {
    const prices = this.allowances.catalog.topup_prices;
    if (!prices) throw new ApiError('TOPUP_LIMIT', TOPUP_LIMIT_MESSAGE);
    if (!(await this.detailsOf(userId))) throw new ApiError('UNPROCESSABLE', 'Save your billing details first: they go on the invoice.');
    return this.issue(userId, async (trx) => {
      await trx.updateTable('users').set((eb) => ({ id: eb.ref('id') })).where('id', '=', userId).execute();
      const { limitGb, boughtGb } = await this.topUpRoomOf(userId, trx);
      if (boughtGb + input.gb > limitGb) throw new ApiError('TOPUP_LIMIT', TOPUP_LIMIT_MESSAGE);
      const quote = computeTopUpQuote(prices, input.storage, input.gb, input.currency, limitGb, boughtGb);
      const kindName = input.storage === 'permanent' ? 'Permanent' : 'Cloud';
      return {
        plan_id: (await this.allowances.planOf(userId, trx)).id,
        currency: quote.currency,
        quantity: quote.gb,
        coupon: null,
        subtotal: quote.subtotal,
        discount: 0,
        total_tax: quote.total_tax,
        total: quote.total,
        lines: [{ description: `${kindName} storage top-up (GB)`, quantity: quote.gb, amount: quote.subtotal }],
        kind: 'topup',
        topup_storage: quote.storage,
        topup_gb: quote.gb,
      };
    });
  }

  /**
   * Issues an open invoice with the next number, inside one transaction: `prepare` checks what it
   * must (throwing refuses, nothing written) and gives the figures. Numbers are sequential per
   * server; the unique constraint settles a race (retried).
   */
  private async issue(
    userId: string,
    prepare: (trx: Db) => Promise<Omit<InvoicesTable, 'id' | 'number' | 'user_id' | 'status' | 'created_at' | 'paid_at' | 'lines'> & { lines: InvoiceLine[] }>,
  ): Promise<Invoice> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.db.transaction().execute(async (trx) => {
          const { lines, ...figures } = await prepare(trx);
          const { count } = await trx.selectFrom('invoices').select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow();
          const row: InvoicesTable = {
            ...figures,
            id: crypto.randomUUID(),
            number: `CAIRN-${String(Number(count) + 1 + attempt).padStart(6, '0')}`,
            user_id: userId,
            lines: JSON.stringify(lines),
            status: 'open',
            created_at: this.clock.now(),
            paid_at: null,
          };
          await trx.insertInto('invoices').values(row).execute();
          return invoiceOf(row, lines);
        });
      } catch (error) {
        if (attempt < 5 && isUniqueViolation(error)) continue;
        throw error;
      }
    }
  }
}

/** The stored lines, checked: a row is data from disk, not a trusted shape. */
function parseLines(json: string): InvoiceLine[] {
  return z.array(InvoiceLine).parse(JSON.parse(json));
}

/** The row as the API answers it, checked by the protocol's schema (no cast of the stored currency). */
function invoiceOf(row: InvoicesTable, lines: InvoiceLine[]): Invoice {
  return Invoice.parse({
    id: row.id,
    number: row.number,
    created: Math.floor(Number(row.created_at) / 1000),
    status: row.status === 'paid' ? 'paid' : 'open',
    currency: row.currency,
    planId: row.plan_id,
    quantity: row.quantity,
    coupon: row.coupon,
    subtotal: Number(row.subtotal),
    discount: Number(row.discount),
    total_tax: Number(row.total_tax),
    total: Number(row.total),
    amount_due: row.status === 'paid' ? 0 : Number(row.total),
    lines,
  });
}
