/**
 * What the NFT pages say about a licence, balances and a chain status (spec 002 section 3 display
 * defaults; spec 000 statuses). Pure, so the texts are tested without rendering.
 */
import type { NftChainState, Udl, UdlGrant } from '../../protocol/nfts';
import { STORAGE_STATUS_VIEW } from '../storage/storageStatus';

export interface UdlLine {
  label: string;
  value: string;
}

/** Shown for the licence when the minter removed the UDL. */
export const UDL_NONE = 'None';

/** An entry as spec 002 shows it: type, fee type, fee value (or the revenue share). */
function grantText(grant: UdlGrant): string {
  switch (grant.type) {
    case 'None':
      return 'Not allowed';
    case 'Allowed-With-RevenueShare':
      return `${grant.type}, ${grant.value}%`;
    case 'Allowed-With-Fee':
      return `${grant.type}, ${grant.fee.type}, ${grant.fee.value}`;
    default:
      return grant.type;
  }
}

/**
 * The 'Universal Data License' section's lines, or null when the UDL was removed ('None').
 * Defaults (spec 002 section 3): access Free; derivation and commercial use Not allowed; unknown
 * rights Included; currency U; duration infinite; payment address None.
 */
export function udlLines(udl: Udl | null): UdlLine[] | null {
  if (!udl) return null;
  const lines: UdlLine[] = [
    { label: 'Access', value: udl.licenseFee ? `${udl.licenseFee.type}, ${udl.licenseFee.value}` : 'Free' },
    { label: 'Derivations', value: grantText(udl.derivation) },
    { label: 'Commercial use', value: grantText(udl.commercialUse) },
    { label: 'Data Model Training', value: grantText(udl.dataModelTraining) },
    { label: 'Unknown rights', value: udl.unknownUsageRights },
    { label: 'Currency', value: udl.currency },
    { label: 'Duration', value: udl.expires === null ? 'Infinite' : `${udl.expires} ${udl.expires === 1 ? 'year' : 'years'}` },
    { label: 'Payment address', value: udl.paymentAddress ?? 'None' },
  ];
  if (udl.paymentMode) lines.push({ label: 'Payment mode', value: udl.paymentMode });
  return lines;
}

/** One holder's tokens: more than 1 is shown as fractional tokens (spec 002 section 3). */
export function balanceText(tokens: number): string {
  return tokens > 1 ? `${tokens} fractional tokens` : `${tokens} token`;
}

/** What the list and the detail say of a mint's chain state; no state yet: not on the network yet. */
export function nftStatusText(state: NftChainState | undefined): string {
  if (!state) return 'Not on the network yet';
  if (state.status === 'REGISTERED') return 'NFT successfully minted';
  return STORAGE_STATUS_VIEW[state.status].label;
}
