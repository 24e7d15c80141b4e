import { describe, expect, it } from 'vitest';
import type { Plan } from '../protocol/plans';
import { currencyOf, DEFAULT_CURRENCY, featureName, featuresOf, formatPrice, limitText, monthlyPriceOf } from './planPricing';

function plan(tiers: Plan['price']['currency_options']['eur']['tiers'], features = 'vaults;members'): Plan {
  const option = { tiers };
  return {
    id: 'boulder',
    name: 'Boulder',
    price: { currency_options: { eur: option, usd: option, gbp: option } },
    metadata: { app_features: features },
    storage: { permanent_bytes: 1, cloud_bytes: 1 },
    limits: { vaults: null, members: null },
  };
}

describe('formatPrice (spec 002 section 9: cents divided by 100, symbols €, $, £)', () => {
  it('puts each currency\'s symbol before the amount', () => {
    expect(formatPrice(900, 'eur')).toBe('€9');
    expect(formatPrice(1000, 'usd')).toBe('$10');
    expect(formatPrice(800, 'gbp')).toBe('£8');
  });

  it('divides minor units by 100: cents show as two decimals, whole amounts without', () => {
    expect(formatPrice(499, 'usd')).toBe('$4.99');
    expect(formatPrice(450, 'eur')).toBe('€4.50');
    expect(formatPrice(5, 'gbp')).toBe('£0.05');
    expect(formatPrice(0, 'usd')).toBe('$0');
  });

  it('groups thousands and rounds fractions of a cent to the nearest cent', () => {
    expect(formatPrice(120_000, 'usd')).toBe('$1,200');
    expect(formatPrice(123_456_789, 'eur')).toBe('€1,234,567.89');
    expect(formatPrice(499.5, 'gbp')).toBe('£5');
    expect(formatPrice(499.4, 'gbp')).toBe('£4.99');
  });
});

describe('monthlyPriceOf', () => {
  it('is the flat amount plus the unit amount for the default quantity 1', () => {
    expect(monthlyPriceOf(plan([{ flat_amount: 900, unit_amount_decimal: '0' }]), 'eur')).toBe(900);
    expect(monthlyPriceOf(plan([{ flat_amount: 0, unit_amount_decimal: '499.5' }]), 'usd')).toBe(500);
    expect(monthlyPriceOf(plan([{ flat_amount: 100, unit_amount_decimal: null }]), 'gbp')).toBe(100);
  });

  it('takes the tier whose up_to reaches the quantity', () => {
    const tiered = plan([
      { flat_amount: 500, unit_amount_decimal: '100', up_to: 5 },
      { flat_amount: 1000, unit_amount_decimal: '50', up_to: null },
    ]);
    expect(monthlyPriceOf(tiered, 'eur')).toBe(600);
    expect(monthlyPriceOf(tiered, 'eur', 5)).toBe(1000);
    expect(monthlyPriceOf(tiered, 'eur', 10)).toBe(1500);
  });
});

describe('currencyOf', () => {
  it('reads eur, usd and gbp in any case, and falls back to the spec\'s default, USD', () => {
    expect(DEFAULT_CURRENCY).toBe('usd');
    expect(currencyOf('eur')).toBe('eur');
    expect(currencyOf('GBP')).toBe('gbp');
    expect(currencyOf(undefined)).toBe('usd');
    expect(currencyOf('jpy')).toBe('usd');
  });
});

describe('features and limits', () => {
  it('splits the semicolon list and names known features', () => {
    const features = featuresOf(plan([{ flat_amount: 0, unit_amount_decimal: '0' }], 'vaults;nfts;priority_support'));
    expect(features).toEqual(['vaults', 'nfts', 'priority_support']);
    expect(features.map(featureName)).toEqual(['Vaults', 'Atomic NFTs', 'Priority support']);
    expect(featuresOf(plan([{ flat_amount: 0, unit_amount_decimal: '0' }], ''))).toEqual([]);
  });

  it('says unlimited for no limit, and one or many', () => {
    expect(limitText(null, 'vault', 'vaults')).toBe('Unlimited vaults');
    expect(limitText(1, 'vault', 'vaults')).toBe('1 vault');
    expect(limitText(1500, 'vault', 'vaults')).toBe('1,500 vaults');
  });
});
