/**
 * Cairn's service worker (vite-plugin-pwa `injectManifest`; built to dist/sw.js). One module per
 * route; Workbox answers a request with the first route that matches, so the order below is the
 * order of precedence: the download stream, then the precached app shell, then the navigation
 * fallback.
 *
 * Updates follow `registerType: 'prompt'` (src/app/UpdatePrompt.tsx): a new version installs and
 * waits until the page asks it to take over with `{ type: 'SKIP_WAITING' }`.
 */
import type { PrecacheEntry } from 'workbox-precaching';
import { z } from 'zod';
import { registerDownloadStreamRoute } from './downloadStreamRoute';
import { registerNavigationFallbackRoute } from './navigationFallbackRoute';
import { registerPrecacheRoute } from './precacheRoute';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

const SkipWaiting = z.object({ type: z.literal('SKIP_WAITING') });

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if (SkipWaiting.safeParse(event.data).success) void self.skipWaiting();
});

registerDownloadStreamRoute(self);
registerPrecacheRoute(self.__WB_MANIFEST);
registerNavigationFallbackRoute();
