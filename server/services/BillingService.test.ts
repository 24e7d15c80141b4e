/**
 * The upcoming invoice's arithmetic (SYNC_SPEC R114): whole minor units, coupons by percent or
 * amount, VAT 20% inside the total.
 */
import { describe, expect, it } from 'vitest';
import { type Plan, PlanCatalog } from '../../src/protocol/plans';
import { computeUpcomingInvoice, findCoupon } from './BillingService';

function plan(tiers: Plan['price']['currency_options']['eur']['tiers']): Plan {
  return {
    id: 'boulder',
    name: 'Boulder',
    price: { currency_options: { eur: { tiers }, usd: { tiers }, gbp: { tiers } } },
    metadata: { app_features: '' },
    storage: { permanent_bytes: 0, cloud_bytes: 0 },
    limits: { vaults: null, members: null },
  };
}

describe('computeUpcomingInvoice', () => {
  it('[R114] the VAT is the part of the total that is 20% on top of the rest: 1200 is 1000 + 200', () => {
    const invoice = computeUpcomingInvoice(plan([{ flat_amount: 1200, unit_amount_decimal: '0' }]), 'eur', 1, null);
    expect(invoice).toMatchObject({ subtotal: 1200, discount: null, total: 1200, total_tax: 200, total_excluding_tax: 1000, tax_percent: 20 });
  });

  it('[R114] the VAT is rounded to whole minor units, half up, and tax plus the rest is the total', () => {
    // 999 × 20 / 120 = 166.5 → 167; 1001 → 166.83 → 167; 1 → 0.17 → 0.
    for (const [total, tax] of [
      [999, 167],
      [1001, 167],
      [1, 0],
    ] as const) {
      const invoice = computeUpcomingInvoice(plan([{ flat_amount: total, unit_amount_decimal: '0' }]), 'usd', 1, null);
      expect([invoice.total_tax, invoice.total_excluding_tax + invoice.total_tax]).toEqual([tax, total]);
    }
  });

  it('[R114] quantity multiplies the unit amount, fractions of a cent rounded half up', () => {
    const invoice = computeUpcomingInvoice(plan([{ flat_amount: 100, unit_amount_decimal: '249.5' }]), 'gbp', 3, null);
    expect(invoice).toMatchObject({ quantity: 3, subtotal: 849, total: 849 }); // 100 + 748.5 → 849
  });

  it('[R113] a percent coupon rounds its discount half up; an amount coupon takes its amount in that currency', () => {
    const p = plan([{ flat_amount: 999, unit_amount_decimal: '0' }]);
    expect(computeUpcomingInvoice(p, 'eur', 1, { code: 'HALF', percent_off: 50 })).toMatchObject({ discount: { coupon: { name: 'HALF', percent_off: 50 }, amount: 500 }, total: 499 });
    expect(computeUpcomingInvoice(p, 'usd', 1, { code: 'TWO', amount_off: { usd: 200 } })).toMatchObject({ discount: { amount: 200 }, total: 799, total_tax: 133 });
    // No amount in this currency: nothing off.
    expect(computeUpcomingInvoice(p, 'eur', 1, { code: 'TWO', amount_off: { usd: 200 } })).toMatchObject({ discount: { amount: 0 }, total: 999 });
  });

  it('[R113] a discount never takes the total below zero', () => {
    const invoice = computeUpcomingInvoice(plan([{ flat_amount: 500, unit_amount_decimal: '0' }]), 'eur', 1, { code: 'BIG', amount_off: { eur: 9_999 } });
    expect(invoice).toMatchObject({ discount: { amount: 500 }, total: 0, total_tax: 0 });
  });
});

describe('findCoupon', () => {
  const coupons = [{ code: 'Spring25', percent_off: 25 }, { code: 'ONLYGRANITE', percent_off: 10, plans: ['granite'] }];
  it('[R113] matches codes without regard to case, and only for the plans a coupon names', () => {
    expect(findCoupon(coupons, ' spring25 ', 'boulder')?.code).toBe('Spring25');
    expect(findCoupon(coupons, 'ONLYGRANITE', 'boulder')).toBeNull();
    expect(findCoupon(coupons, 'ONLYGRANITE', 'granite')?.code).toBe('ONLYGRANITE');
    expect(findCoupon(coupons, 'nope', 'boulder')).toBeNull();
  });
});

describe('the plans file with coupons', () => {
  const base = { default_plan: 'pebble', plans: [{ ...plan([{ flat_amount: 0, unit_amount_decimal: '0' }]), id: 'pebble' }] };
  it('[R113] a file without coupons still loads; a coupon needs percent_off or amount_off, not both, and a code of 3 or more', () => {
    expect(PlanCatalog.safeParse(base).success).toBe(true);
    expect(PlanCatalog.safeParse({ ...base, coupons: [{ code: 'SPRING25', percent_off: 25 }] }).success).toBe(true);
    expect(PlanCatalog.safeParse({ ...base, coupons: [{ code: 'BOTH', percent_off: 25, amount_off: { eur: 100 } }] }).success).toBe(false);
    expect(PlanCatalog.safeParse({ ...base, coupons: [{ code: 'NONE' }] }).success).toBe(false);
    expect(PlanCatalog.safeParse({ ...base, coupons: [{ code: 'AB', percent_off: 10 }] }).success).toBe(false);
    expect(PlanCatalog.safeParse({ ...base, coupons: [{ code: 'OVER', percent_off: 101 }] }).success).toBe(false);
  });
});
