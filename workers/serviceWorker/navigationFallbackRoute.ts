/**
 * Navigations answer the precached index.html, so every client route opens offline. The API and
 * the operator's legal pages are real server paths and always go to the network.
 */
import { createHandlerBoundToURL } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

export const NAVIGATION_FALLBACK_DENYLIST = [/^\/api(\/|$)/, /^\/legal\//];

/** Needs the precache route first: `index.html` must be in the precache. */
export function registerNavigationFallbackRoute(): void {
  registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: NAVIGATION_FALLBACK_DENYLIST }));
}
