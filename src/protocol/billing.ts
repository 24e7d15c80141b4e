/**
 * Checkout (issue 21; spec 002 sections 3, 5, 7 and 8; SYNC_SPEC R112-R114): the account's billing
 * details, the operator's coupons, and the upcoming invoice the server computes. The billing rules
 * live here once: the checkout form validates with `BillingDetails` before sending, and the server
 * validates the same schema at the edge, so the two can never disagree.
 */
import { z } from 'zod';
import { COUPON_MIN_LENGTH, PLAN_CURRENCIES } from './plans';

export { COUPON_MIN_LENGTH, Coupon } from './plans';

/** Spec 002 section 9 and the checkout content: 'The VAT line shows 20% included'. */
export const VAT_PERCENT = 20;

/** Spec 002 section 8, verbatim (the spec's spelling). */
export const BILLING_TEXTS = {
  couponRejected: 'Incorrect discount code',
  termsRequired: 'Accepting the terms and conditions is mandatory before signing up for the plan.',
  saveFailed: 'Error saving your biling details',
} as const;

/** A text field longer than `moreThan` characters (spec 002 section 5 says 'more than N'), trimmed. */
function moreThan(moreThanChars: number, label: string, max = 200) {
  return z
    .string()
    .trim()
    .min(moreThanChars + 1, `${label} must be more than ${moreThanChars} character${moreThanChars === 1 ? '' : 's'}.`)
    .max(max, `${label} must be at most ${max} characters.`);
}

const Optional = (label: string, max = 200) => z.string().trim().max(max, `${label} must be at most ${max} characters.`).default('');

/**
 * The billing form (spec 002 section 3: name, companyName, companyVat, country, address, city,
 * state, zip) with section 5's rules: name more than 2 characters; country more than 1; city more
 * than 2; address more than 2; zip between 3 and 11 characters; company and tax ID optional.
 */
export const BillingDetails = z
  .object({
    name: moreThan(2, 'Name'),
    companyName: Optional('Company name'),
    companyVat: Optional('Tax ID', 50),
    country: moreThan(1, 'Country', 100),
    address: moreThan(2, 'Address'),
    city: moreThan(2, 'City', 100),
    state: Optional('State', 100),
    zip: z.string().trim().min(3, 'Zip code must be between 3 and 11 characters.').max(11, 'Zip code must be between 3 and 11 characters.'),
  })
  .strict();
export type BillingDetails = z.infer<typeof BillingDetails>;
export type BillingDetailsInput = z.input<typeof BillingDetails>;

/** GET /api/billing/details: the saved details, or null before the first save. */
export const BillingDetailsResponse = z.object({ details: BillingDetails.nullable() }).strict();
export type BillingDetailsResponse = z.infer<typeof BillingDetailsResponse>;

const Currency = z.enum(PLAN_CURRENCIES);


/** POST /api/billing/upcoming-invoice (spec 002 section 7: simulate ?currency&quantity&coupon). */
export const UpcomingInvoiceRequest = z
  .object({
    planId: z.string().min(1).max(64),
    currency: Currency,
    /** Spec 002 section 3: plan query parameter quantity (default 1). */
    quantity: z.number().int().min(1).max(10_000).default(1),
    coupon: z.string().trim().min(COUPON_MIN_LENGTH).max(40).optional(),
  })
  .strict();
export type UpcomingInvoiceRequest = z.input<typeof UpcomingInvoiceRequest>;

/**
 * The upcoming invoice (spec 002 section 3), every amount in minor units of `currency`. The VAT is
 * inside the total (spec: '20% included'): `total_tax` is the part of `total` that is VAT, and
 * `total_excluding_tax` the rest.
 */
export const UpcomingInvoice = z
  .object({
    planId: z.string(),
    planName: z.string(),
    currency: Currency,
    quantity: z.number().int(),
    subtotal: z.number().int(),
    discount: z.object({ coupon: z.object({ name: z.string(), percent_off: z.number().nullable() }), amount: z.number().int() }).nullable(),
    tax_percent: z.number(),
    total_tax: z.number().int(),
    total_excluding_tax: z.number().int(),
    total: z.number().int(),
  })
  .strict();
export type UpcomingInvoice = z.infer<typeof UpcomingInvoice>;

/**
 * POST /api/billing/subscriptions (SYNC_SPEC R114): subscribe by invoice. Both boxes must be ticked
 * (spec 002 section 5: 'A subscription requires accepting terms and renewal').
 */
export const SubscribeRequest = z
  .object({
    planId: z.string().min(1).max(64),
    currency: Currency,
    quantity: z.number().int().min(1).max(10_000).default(1),
    coupon: z.string().trim().min(COUPON_MIN_LENGTH).max(40).optional(),
    acceptTerms: z.literal(true, { message: BILLING_TEXTS.termsRequired }),
    acceptRenewal: z.literal(true, { message: BILLING_TEXTS.termsRequired }),
  })
  .strict();
export type SubscribeRequest = z.input<typeof SubscribeRequest>;

export const InvoiceLine = z.object({ description: z.string(), quantity: z.number().int(), amount: z.number().int() }).strict();
export type InvoiceLine = z.infer<typeof InvoiceLine>;

/** An invoice as issued (spec 002 section 3, Invoice): amounts in minor units; `created` in seconds. */
export const Invoice = z
  .object({
    id: z.string(),
    number: z.string(),
    created: z.number().int(),
    status: z.enum(['open', 'paid']),
    currency: Currency,
    planId: z.string(),
    quantity: z.number().int(),
    coupon: z.string().nullable(),
    subtotal: z.number().int(),
    discount: z.number().int(),
    total_tax: z.number().int(),
    total: z.number().int(),
    amount_due: z.number().int(),
    lines: z.array(InvoiceLine),
  })
  .strict();
export type Invoice = z.infer<typeof Invoice>;

/** Spec 002 section 9: 'invoices page 5'. */
export const INVOICE_PAGE_SIZE = 5;

/**
 * GET /api/billing/invoices?limit&after (SYNC_SPEC R116; spec 002 section 7: 'limit 5,
 * lastInvoiceId'): the caller's invoices newest first; `after` is the id of the last one shown.
 */
export const InvoiceListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(50).default(INVOICE_PAGE_SIZE),
  after: z.string().min(1).max(64).optional(),
});
export type InvoiceListQuery = z.infer<typeof InvoiceListQuery>;

/** One page of invoices (spec 002 section 7: 'data and has_more'). */
export const InvoicePage = z.object({ data: z.array(Invoice), has_more: z.boolean() }).strict();
export type InvoicePage = z.infer<typeof InvoicePage>;

/** GET /api/billing/invoices/:id/pdf. */
export const InvoiceParams = z.strictObject({ id: z.string().min(1).max(64) });

/** DELETE /api/billing/subscription (SYNC_SPEC R117): the plan the account is on afterwards. */
export const EndSubscriptionResponse = z.object({ planId: z.string(), planName: z.string() }).strict();
export type EndSubscriptionResponse = z.infer<typeof EndSubscriptionResponse>;

/** The two kinds of storage a top-up buys (SYNC_SPEC R118). */
export const TOPUP_STORAGE = ['permanent', 'cloud'] as const;
export type TopUpStorage = (typeof TOPUP_STORAGE)[number];

/** Bytes in one GB of a top-up: 10^9, as everywhere in Cairn (formatBytes, VAULT_LIMITS). */
export const TOPUP_BYTES_PER_GB = 1_000_000_000;

/** Most GB one top-up buys (a plan's top-up limit is usually lower). */
export const TOPUP_MAX_GB = 10_000;

/** POST /api/billing/topup-quote (SYNC_SPEC R118): the figures of a top-up before buying it. */
export const TopUpQuoteRequest = z
  .object({
    storage: z.enum(TOPUP_STORAGE),
    gb: z.number().int().min(1).max(TOPUP_MAX_GB),
    currency: Currency,
  })
  .strict();
export type TopUpQuoteRequest = z.input<typeof TopUpQuoteRequest>;

/**
 * A top-up's figures, computed by the server in minor units of `currency`: `subtotal` = the
 * operator's price per GB × gb; the VAT is inside the total as in the upcoming invoice. `limitGb`
 * is the plan's top-up limit and `boughtGb` what the account has bought already (open and paid
 * top-ups, both kinds), so the form can say how much more is allowed.
 */
export const TopUpQuote = z
  .object({
    storage: z.enum(TOPUP_STORAGE),
    gb: z.number().int(),
    currency: Currency,
    unit_amount: z.number().int(),
    subtotal: z.number().int(),
    tax_percent: z.number(),
    total_tax: z.number().int(),
    total_excluding_tax: z.number().int(),
    total: z.number().int(),
    limitGb: z.number().int(),
    boughtGb: z.number().int(),
  })
  .strict();
export type TopUpQuote = z.infer<typeof TopUpQuote>;

/** POST /api/billing/topups (SYNC_SPEC R118): buy a top-up by invoice; the terms box must be ticked. */
export const TopUpRequest = TopUpQuoteRequest.extend({
  acceptTerms: z.literal(true, { message: BILLING_TEXTS.termsRequired }),
}).strict();
export type TopUpRequest = z.input<typeof TopUpRequest>;
