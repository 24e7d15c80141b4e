import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChannelLike,
  createSessionStore,
  SESSION_KEY,
  type SessionEvent,
  type SessionStore,
  type StorageLike,
} from './sessionStore';

class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** An in-memory BroadcastChannel: delivers to every other channel of the same hub, asynchronously. */
function createChannelHub() {
  const channels = new Set<MemoryChannel>();
  class MemoryChannel implements ChannelLike {
    private listeners = new Set<(event: MessageEvent) => void>();
    constructor() {
      channels.add(this);
    }
    postMessage(message: unknown) {
      const data = structuredClone(message);
      for (const channel of channels) {
        if (channel !== this) queueMicrotask(() => channel.deliver(data));
      }
    }
    deliver(data: unknown) {
      for (const listener of this.listeners) listener({ data } as MessageEvent);
    }
    addEventListener(_type: 'message', listener: (event: MessageEvent) => void) {
      this.listeners.add(listener);
    }
    removeEventListener(_type: 'message', listener: (event: MessageEvent) => void) {
      this.listeners.delete(listener);
    }
    close() {
      channels.delete(this);
    }
  }
  return { open: () => new MemoryChannel() };
}

const stores: SessionStore[] = [];
function tab(persistent: MemoryStorage, hub: ReturnType<typeof createChannelHub>, perTab = new MemoryStorage()) {
  const store = createSessionStore({ persistent, perTab, channel: hub.open(), answerTimeoutMs: 30 });
  stores.push(store);
  return { store, perTab };
}

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

describe('sessionStore', () => {
  it("keeps a 'Keep me signed in' session in localStorage and nowhere else", () => {
    const local = new MemoryStorage();
    const { store, perTab } = tab(local, createChannelHub());
    store.write({ userId: 'u1', keepSignedIn: true });
    expect(JSON.parse(local.getItem(SESSION_KEY) ?? 'null')).toEqual({ userId: 'u1', keepSignedIn: true });
    expect(perTab.getItem(SESSION_KEY)).toBeNull();
    expect(store.read()).toEqual({ userId: 'u1', keepSignedIn: true });
  });

  it('keeps any other session in sessionStorage only, and moves it when the choice changes', () => {
    const local = new MemoryStorage();
    const { store, perTab } = tab(local, createChannelHub());
    store.write({ userId: 'u1', keepSignedIn: true });
    store.write({ userId: 'u1', keepSignedIn: false });
    expect(local.getItem(SESSION_KEY)).toBeNull();
    expect(JSON.parse(perTab.getItem(SESSION_KEY) ?? 'null')).toEqual({ userId: 'u1', keepSignedIn: false });
  });

  it('clears both storages', () => {
    const local = new MemoryStorage();
    const { store, perTab } = tab(local, createChannelHub());
    local.setItem(SESSION_KEY, JSON.stringify({ userId: 'a', keepSignedIn: true }));
    perTab.setItem(SESSION_KEY, JSON.stringify({ userId: 'b', keepSignedIn: false }));
    store.clear();
    expect(store.read()).toBeNull();
  });

  it('ignores malformed records', () => {
    const local = new MemoryStorage();
    local.setItem(SESSION_KEY, '{"userId":42}');
    const { store, perTab } = tab(local, createChannelHub());
    perTab.setItem(SESSION_KEY, 'not json');
    expect(store.read()).toBeNull();
  });

  it('a new tab receives the session of an open tab over the channel and keeps it for reloads', async () => {
    const local = new MemoryStorage();
    const hub = createChannelHub();
    const first = tab(local, hub);
    first.store.write({ userId: 'u1', keepSignedIn: false });

    const second = tab(local, hub);
    await expect(second.store.load()).resolves.toEqual({ userId: 'u1', keepSignedIn: false });
    expect(JSON.parse(second.perTab.getItem(SESSION_KEY) ?? 'null')).toEqual({ userId: 'u1', keepSignedIn: false });
  });

  it('a new tab with no open signed-in tab is signed out after the wait', async () => {
    const hub = createChannelHub();
    tab(new MemoryStorage(), hub);
    const lone = tab(new MemoryStorage(), hub);
    await expect(lone.store.load()).resolves.toBeNull();
  });

  it('announces log in and log out to the other tabs', async () => {
    const local = new MemoryStorage();
    const hub = createChannelHub();
    const a = tab(local, hub);
    const b = tab(local, hub);
    const seen: SessionEvent[] = [];
    b.store.subscribe((event) => seen.push(event));
    a.store.announce({ type: 'signed-in', record: { userId: 'u1', keepSignedIn: true } });
    a.store.announce({ type: 'signed-out', userId: 'u1' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([
      { type: 'signed-in', record: { userId: 'u1', keepSignedIn: true } },
      { type: 'signed-out', userId: 'u1' },
    ]);
  });

  it('works without storage or channel (blocked site data)', async () => {
    const store = createSessionStore({ persistent: null, perTab: null, channel: null });
    store.write({ userId: 'u1', keepSignedIn: true });
    expect(store.read()).toBeNull();
    await expect(store.load()).resolves.toBeNull();
  });
});

describe('sessionStore unkept wallets', () => {
  it('remembers which accounts left a wallet for a session that ends with the browser', () => {
    const local = new MemoryStorage();
    const { store } = tab(local, createChannelHub());
    store.markUnkept('u1');
    store.markUnkept('u1');
    store.markUnkept('u2');
    expect(store.listUnkept()).toEqual(['u1', 'u2']);
    store.unmarkUnkept('u1');
    store.unmarkUnkept('u2');
    expect(store.listUnkept()).toEqual([]);
    expect(local.items.size).toBe(0);
  });
});
