/**
 * Where this device remembers who is signed in (spec 001 section 4, spec 000 "Session and theme").
 *
 * 'Keep me signed in' puts the record in localStorage (it outlives the browser); otherwise it
 * lives in sessionStorage and ends with the tab. A tab opened later has an empty sessionStorage,
 * so it asks the open tabs over the BroadcastChannel 'cairn-session' and adopts the answer. Log in
 * and log out are announced on the same channel so every tab follows.
 *
 * The record holds no secret: the session token is an HTTP-only cookie and the wallet is sealed
 * in IndexedDB (storage/walletStore.ts).
 */

export interface SessionRecord {
  userId: string;
  keepSignedIn: boolean;
}

/** The subset of the Web Storage API used here (tests pass a Map-backed fake). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The subset of BroadcastChannel used here. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

export const SESSION_KEY = 'cairn.session';
/** Accounts whose sealed wallet was stored for a session that ends with the browser. */
export const UNKEPT_KEY = 'cairn.unkeptWallets';
export const SESSION_CHANNEL = 'cairn-session';
/** How long a new tab waits for an open tab to share its session. Same-origin tabs answer in ms. */
export const TAB_ANSWER_TIMEOUT_MS = 250;

/** What the channel carries between tabs. */
export type SessionMessage =
  | { type: 'request' }
  | { type: 'record'; record: SessionRecord }
  | { type: 'signed-in'; record: SessionRecord }
  | { type: 'signed-out'; userId: string };

export type SessionEvent = { type: 'signed-in'; record: SessionRecord } | { type: 'signed-out'; userId: string };

export interface SessionStore {
  /** The record in this tab's storage: localStorage first, then sessionStorage. */
  read(): SessionRecord | null;
  /** This tab's record, or the one an open tab shares within the timeout. */
  load(): Promise<SessionRecord | null>;
  /** Stores the record where `keepSignedIn` says, and removes it from the other storage. */
  write(record: SessionRecord): void;
  clear(): void;
  /**
   * Remembers (in localStorage) that `userId`'s sealed wallet belongs to a session that ends with
   * the browser, so the next start with no session anywhere can delete it.
   */
  markUnkept(userId: string): void;
  unmarkUnkept(userId: string): void;
  listUnkept(): string[];
  /** Tells the other tabs. */
  announce(event: SessionEvent): void;
  /** Listens for the other tabs' log in and log out. Returns the unsubscribe function. */
  subscribe(listener: (event: SessionEvent) => void): () => void;
  close(): void;
}

export interface SessionStoreOptions {
  /** localStorage, or null where it is unavailable. */
  persistent: StorageLike | null;
  /** sessionStorage, or null where it is unavailable. */
  perTab: StorageLike | null;
  channel: ChannelLike | null;
  answerTimeoutMs?: number;
}

export function parseSessionRecord(value: unknown): SessionRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const { userId, keepSignedIn } = value as { userId?: unknown; keepSignedIn?: unknown };
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > 64) return null;
  if (typeof keepSignedIn !== 'boolean') return null;
  return { userId, keepSignedIn };
}

function parseMessage(data: unknown): SessionMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as { type?: unknown; record?: unknown; userId?: unknown };
  switch (message.type) {
    case 'request':
      return { type: 'request' };
    case 'record':
    case 'signed-in': {
      const record = parseSessionRecord(message.record);
      return record ? { type: message.type, record } : null;
    }
    case 'signed-out':
      return typeof message.userId === 'string' ? { type: 'signed-out', userId: message.userId } : null;
    default:
      return null;
  }
}

// Storage may throw (SecurityError when cookies and site data are blocked): treat that as empty.
function readFrom(storage: StorageLike | null): SessionRecord | null {
  if (!storage) return null;
  try {
    const raw = storage.getItem(SESSION_KEY);
    return raw ? parseSessionRecord(JSON.parse(raw)) : null;
  } catch {
    return null;
  }
}

function removeFrom(storage: StorageLike | null): void {
  try {
    storage?.removeItem(SESSION_KEY);
  } catch {
    // Nothing stored there then.
  }
}

export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const { persistent, perTab, channel } = options;
  const answerTimeoutMs = options.answerTimeoutMs ?? TAB_ANSWER_TIMEOUT_MS;
  const listeners = new Set<(event: SessionEvent) => void>();
  const waiting = new Set<(record: SessionRecord) => void>();

  function read(): SessionRecord | null {
    return readFrom(persistent) ?? readFrom(perTab);
  }

  function write(record: SessionRecord): void {
    const target = record.keepSignedIn ? persistent : perTab;
    removeFrom(record.keepSignedIn ? perTab : persistent);
    try {
      target?.setItem(SESSION_KEY, JSON.stringify(record));
    } catch {
      // Storage refused: the session then lasts as long as this page.
    }
  }

  function onMessage(event: MessageEvent): void {
    const message = parseMessage(event.data);
    if (!message) return;
    switch (message.type) {
      case 'request': {
        const record = read();
        if (record) channel?.postMessage({ type: 'record', record } satisfies SessionMessage);
        break;
      }
      case 'record':
        for (const resolve of waiting) resolve(message.record);
        break;
      case 'signed-in':
      case 'signed-out':
        for (const listener of listeners) listener(message);
        break;
    }
  }
  channel?.addEventListener('message', onMessage);

  function askOpenTabs(): Promise<SessionRecord | null> {
    if (!channel) return Promise.resolve(null);
    return new Promise((resolve) => {
      const done = (record: SessionRecord | null) => {
        clearTimeout(timer);
        waiting.delete(done);
        resolve(record);
      };
      const timer = setTimeout(() => done(null), answerTimeoutMs);
      waiting.add(done);
      channel.postMessage({ type: 'request' } satisfies SessionMessage);
    });
  }

  function listUnkept(): string[] {
    try {
      const value: unknown = JSON.parse(persistent?.getItem(UNKEPT_KEY) ?? '[]');
      return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      return [];
    }
  }

  function saveUnkept(ids: string[]): void {
    try {
      if (ids.length === 0) persistent?.removeItem(UNKEPT_KEY);
      else persistent?.setItem(UNKEPT_KEY, JSON.stringify(ids));
    } catch {
      // Nothing to remember then.
    }
  }

  return {
    read,
    write,
    listUnkept,
    markUnkept(userId) {
      const ids = listUnkept();
      if (!ids.includes(userId)) saveUnkept([...ids, userId]);
    },
    unmarkUnkept(userId) {
      saveUnkept(listUnkept().filter((id) => id !== userId));
    },
    async load() {
      const own = read();
      if (own) return own;
      const shared = await askOpenTabs();
      // Adopt it for this tab so a reload finds it without asking again.
      if (shared) write(shared);
      return shared;
    },
    clear() {
      removeFrom(persistent);
      removeFrom(perTab);
    },
    announce(event) {
      channel?.postMessage(event satisfies SessionMessage);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      channel?.removeEventListener('message', onMessage);
      channel?.close();
      listeners.clear();
    },
  };
}

function storageOrNull(get: () => Storage): StorageLike | null {
  try {
    return get();
  } catch {
    return null;
  }
}

/** The browser's store over localStorage, sessionStorage and BroadcastChannel. */
export function createBrowserSessionStore(): SessionStore {
  return createSessionStore({
    persistent: storageOrNull(() => window.localStorage),
    perTab: storageOrNull(() => window.sessionStorage),
    channel: typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL),
  });
}
