/**
 * The app shell: every build asset listed by vite-plugin-pwa's injectManifest (globs and size
 * limit in vite.config.ts), served from the precache; caches of older builds are removed.
 */
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';

export function registerPrecacheRoute(manifest: Array<PrecacheEntry | string>): void {
  precacheAndRoute(manifest);
  cleanupOutdatedCaches();
}
