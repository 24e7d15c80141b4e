import { describe, expect, it } from 'vitest';
import { syncLookOf } from './syncStatusText';

describe('the top bar sync status', () => {
  it('R12: offline, the badge counts the changes waiting (as the README says), and still reads Offline', () => {
    expect(syncLookOf('offline', 3).label).toBe('Offline · 3 changes waiting');
    expect(syncLookOf('offline', 1).label).toBe('Offline · 1 change waiting');
    expect(syncLookOf('offline', 0).label).toBe('Offline');
    expect(syncLookOf('offline', 3).detail).toBe("You're offline. 3 changes are waiting to be sent. They are sent when you're back online.");
  });
  it('online it says Synced, Syncing, or how many wait', () => {
    expect(syncLookOf('idle', 0).label).toBe('Synced');
    expect(syncLookOf('idle', 2).label).toBe('2 waiting');
    expect(syncLookOf('syncing', 2).detail).toBe('Syncing. 2 changes are waiting to be sent.');
  });
});
