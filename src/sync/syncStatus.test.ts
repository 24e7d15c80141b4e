/** The sync status store (SYNC_SPEC R12) and the 'server answers again' signal built on it. */
import { describe, expect, it } from 'vitest';
import { createSyncStatusStore, onServerAnswering } from './syncStatus';

describe('sync status', () => {
  it('is offline while the browser says so or no cycle reaches the server, syncing during a cycle', () => {
    let isOnline = true;
    const store = createSyncStatusStore(() => isOnline);
    store.set({ isActive: true });
    expect(store.get()).toBe('syncing');
    store.set({ isActive: false, isReachable: false });
    expect(store.get()).toBe('offline');
    store.set({ isReachable: true });
    expect(store.get()).toBe('idle');
    isOnline = false;
    store.set({});
    expect(store.get()).toBe('offline');
  });

  it('tells when the server answers again, on every cycle that gets through and never while offline', () => {
    const store = createSyncStatusStore(() => true);
    let answered = 0;
    const stop = onServerAnswering(() => (answered += 1), store);
    store.set({ isActive: false, isReachable: false });
    expect(answered).toBe(0);
    // A cycle starts (still unreachable until it answers), then gets through.
    store.set({ isActive: true });
    store.set({ isActive: false, isReachable: true });
    expect(store.get()).toBe('idle');
    expect(answered).toBe(1);
    store.set({ isActive: true });
    store.set({ isActive: false });
    expect(answered).toBe(2);
    stop();
    store.set({ isActive: true });
    store.set({ isActive: false });
    expect(answered).toBe(2);
  });
});
