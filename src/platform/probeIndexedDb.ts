/**
 * Whether IndexedDB works here. Some privacy settings (and older private modes) block it; Cairn
 * cannot keep a vault without it, so the app shows the 418 page instead.
 */
export async function probeIndexedDb(timeoutMs = 3_000): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      resolve(ok);
    };
    try {
      const request = indexedDB.open('cairn-probe');
      request.onsuccess = () => {
        request.result.close();
        done(true);
      };
      request.onerror = () => done(false);
      request.onblocked = () => done(true);
    } catch {
      done(false);
    }
  });
}
