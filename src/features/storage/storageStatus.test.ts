import { describe, expect, it } from 'vitest';
import { StorageTxStatus } from '../../protocol/arweave';
import { VERSION_STATUS_VIEW } from '../timeline/VersionStatusDot';
import { formatReward, STORAGE_STATUS_VIEW, txViewerLink } from './storageStatus';

describe('storage transaction statuses (spec 000 section 4)', () => {
  it('uses the spec texts for every status', () => {
    expect(Object.fromEntries(StorageTxStatus.options.map((status) => [status, STORAGE_STATUS_VIEW[status].label]))).toEqual({
      SCHEDULED: 'With the provider',
      VERIFICATION: 'With the provider',
      BUNDLED: 'Your file is being bundled',
      PENDING: 'With the network',
      COMMITTED: 'Successfully on the network',
      REJECTED: 'Rejected by the network',
      BLOCKED: 'Classified malicious',
      // An NFT's or collection's item confirmed (spec 000; SYNC_SPEC R139).
      REGISTERED: 'NFT successfully minted',
    });
  });

  it("maps each to the timeline dot's spec colour and tooltip; committed shows no dot", () => {
    const dot = (status: StorageTxStatus) => {
      const timeline = STORAGE_STATUS_VIEW[status].timeline;
      return timeline === 'committed' ? null : VERSION_STATUS_VIEW[timeline];
    };
    expect(dot('SCHEDULED')).toEqual({ color: 'orange', tooltip: "Your file is with the provider, next we'll bundle it with other files" });
    expect(dot('BUNDLED')).toEqual({ color: 'orange', tooltip: 'being bundled before being sent to the network' });
    expect(dot('PENDING')).toEqual({ color: 'yellow', tooltip: 'now with the network, being processed' });
    expect(dot('REJECTED')).toEqual({ color: 'red', tooltip: 'rejected by the network. You can remove the file and try again.' });
    expect(dot('BLOCKED')).toEqual({ color: 'pink', tooltip: 'classified as malicious' });
    expect(dot('COMMITTED')).toBeNull();
    expect(STORAGE_STATUS_VIEW.REJECTED.color).toBe('red');
    expect(STORAGE_STATUS_VIEW.COMMITTED.color).toBe('green');
  });

  it('shows rewards in AR from winston', () => {
    expect(formatReward(null)).toBe('—');
    expect(formatReward('0')).toBe('0 AR');
    expect(formatReward('1000000000000')).toBe('1 AR');
    expect(formatReward('1500000000000')).toBe('1.5 AR');
    expect(formatReward('65595508')).toBe('0.000065595508 AR');
    expect(formatReward('12345678900000000')).toBe('12345.6789 AR');
  });

  it('fills the configured viewer template', () => {
    expect(txViewerLink('https://viewblock.io/arweave/tx/{txId}', 'abc_-1')).toBe('https://viewblock.io/arweave/tx/abc_-1');
  });
});
