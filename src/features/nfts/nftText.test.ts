/** The licence, balances and status texts of the NFT pages (spec 002 section 3 display defaults). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_UDL, type Udl } from '../../protocol/nfts';
import { balanceText, nftStatusText, udlLines } from './nftText';

const text = (udl: Udl | null) => udlLines(udl)?.map((line) => `${line.label}: ${line.value}`);

describe('udlLines', () => {
  it('shows the default UDL with the display defaults', () => {
    expect(text(DEFAULT_UDL)).toEqual([
      'Access: Free',
      'Derivations: Not allowed',
      'Commercial use: Not allowed',
      'Data Model Training: Not allowed',
      'Unknown rights: Included',
      'Currency: U',
      'Duration: Infinite',
      'Payment address: None',
    ]);
  });

  it('shows entries as type, fee type, fee value, and the terms a custom UDL set', () => {
    const custom: Udl = {
      licenseFee: { type: 'One-Time', value: 5 },
      derivation: { type: 'Allowed-With-RevenueShare', value: 25 },
      commercialUse: { type: 'Allowed-With-Fee', fee: { type: 'Monthly', value: 3 } },
      dataModelTraining: { type: 'Allowed' },
      unknownUsageRights: 'Excluded',
      currency: 'AR',
      expires: 2,
      paymentAddress: 'p'.repeat(43),
      paymentMode: 'Global-Distribution',
    };
    expect(text(custom)).toEqual([
      'Access: One-Time, 5',
      'Derivations: Allowed-With-RevenueShare, 25%',
      'Commercial use: Allowed-With-Fee, Monthly, 3',
      'Data Model Training: Allowed',
      'Unknown rights: Excluded',
      'Currency: AR',
      'Duration: 2 years',
      `Payment address: ${'p'.repeat(43)}`,
      'Payment mode: Global-Distribution',
    ]);
    expect(text({ ...custom, expires: 1 })).toContain('Duration: 1 year');
  });

  it('is None when the UDL was removed', () => {
    expect(udlLines(null)).toBeNull();
  });
});

describe('balanceText', () => {
  it('shows more than 1 as fractional tokens', () => {
    expect(balanceText(1)).toBe('1 token');
    expect(balanceText(100)).toBe('100 fractional tokens');
  });
});

describe('nftStatusText', () => {
  it('[R139] REGISTERED reads NFT successfully minted; no chain state yet, not on the network yet', () => {
    const state = { objectId: 'n1', kind: 'nft', dataItemId: 'd'.repeat(43), txId: 't'.repeat(43) } as const;
    expect(nftStatusText({ ...state, status: 'REGISTERED' })).toBe('NFT successfully minted');
    expect(nftStatusText({ ...state, status: 'BUNDLED' })).toBe('Your file is being bundled');
    expect(nftStatusText(undefined)).toBe('Not on the network yet');
  });
});
