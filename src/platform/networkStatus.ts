/**
 * The browser's word on the network: `navigator.onLine` and the window's 'online' / 'offline'
 * events. Outside a browser (Node tests without a stubbed window) it is always online, silently.
 */

/** True only when the browser says it is offline (it can be online and still not reach us). */
export function isBrowserOffline(): boolean {
  return globalThis.navigator?.onLine === false;
}

/** Calls `onOnline` / `onOffline` on the browser's events; answers the unsubscribe. */
export function onNetworkChange(onOnline: () => void, onOffline: () => void): () => void {
  const target = globalThis.window as (EventTarget & Partial<Window>) | undefined;
  if (!target?.addEventListener) return () => {};
  target.addEventListener('online', onOnline);
  target.addEventListener('offline', onOffline);
  return () => {
    target.removeEventListener('online', onOnline);
    target.removeEventListener('offline', onOffline);
  };
}
