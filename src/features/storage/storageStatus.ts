/**
 * Storage transaction statuses as people see them (spec 000 section 4, Storage transaction
 * statuses): the texts are the spec's. The timeline's dot speaks in its own words (section 2,
 * Timeline), so each status also maps to the timeline's VersionStatus.
 */
import type { StorageTxStatus } from '../../protocol/arweave';
import type { VersionStatus } from '../timeline/timelineItems';

export interface StorageStatusView {
  label: string;
  /** Mantine colour of the status badge. */
  color: string;
  /** The timeline dot's status for a version whose latest transaction is in this one. */
  timeline: VersionStatus;
}

export const STORAGE_STATUS_VIEW: Record<StorageTxStatus, StorageStatusView> = {
  SCHEDULED: { label: 'With the provider', color: 'orange', timeline: 'received' },
  VERIFICATION: { label: 'With the provider', color: 'orange', timeline: 'received' },
  BUNDLED: { label: 'Your file is being bundled', color: 'orange', timeline: 'bundling' },
  PENDING: { label: 'With the network', color: 'yellow', timeline: 'sent' },
  COMMITTED: { label: 'Successfully on the network', color: 'green', timeline: 'committed' },
  // Spec 000: an NFT's or collection's item confirmed (SYNC_SPEC R139).
  REGISTERED: { label: 'NFT successfully minted', color: 'green', timeline: 'committed' },
  REJECTED: { label: 'Rejected by the network', color: 'red', timeline: 'rejected' },
  BLOCKED: { label: 'Classified malicious', color: 'pink', timeline: 'malicious' },
};

/**
 * Statuses offered by the transactions filter, in the order a file goes through them. Not
 * REGISTERED: the list holds file versions, and only an NFT's or collection's item gets there.
 */
export const STORAGE_STATUS_FILTER: readonly StorageTxStatus[] = ['SCHEDULED', 'VERIFICATION', 'BUNDLED', 'PENDING', 'COMMITTED', 'REJECTED', 'BLOCKED'];

/** Spec 000 section 8: shown once when a transaction turns REJECTED. */
export const UPLOAD_FAILED_TEXT = 'A file failed to upload to the blockchain.';
/** Spec 000 section 4, File storage. */
export const NOT_ON_GATEWAY_TEXT = 'Your file is not yet available on the gateway.';

/** 1 AR = 10^12 winston. Shown with up to 12 decimals, trailing zeros dropped; null: not known yet. */
export function formatReward(winston: string | null): string {
  if (winston === null || !/^\d+$/.test(winston)) return '—';
  const padded = winston.padStart(13, '0');
  const whole = padded.slice(0, -12).replace(/^0+(?=\d)/, '');
  const fraction = padded.slice(-12).replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''} AR`;
}

/** The viewer link for a network transaction from the configured template ({txId}). */
export function txViewerLink(template: string, txId: string): string {
  return template.replace('{txId}', encodeURIComponent(txId));
}
