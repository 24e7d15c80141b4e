/**
 * White-label mode (spec 000 section 1; spec 001 sections 2 and 7; SYNC_SPEC R135): on
 * `{subdomain}.{baseDomain}` Cairn looks the organisation up by its subdomain
 * (GET /organisations?subdomain=) and wears its logo and colours, and the vault lists show cloud
 * vaults only.
 *
 * The answer is kept in localStorage per host name, so a branded login page opens with its logo at
 * once and offline; a later answer replaces it, and an unknown subdomain clears it.
 */
import { useSyncExternalStore } from 'react';
import { ApiError } from '../../protocol/errors';
import { OrganisationBranding, subdomainOfHost } from '../../protocol/organisations';
import { type ApiClient, getApiClient } from '../../platform/apiClient';
import { type ServerConfigStore, serverConfigStore } from '../../app/serverConfigStore';

export interface BrandingSnapshot {
  /** The organisation whose subdomain this is; null on the main host or an unknown subdomain. */
  branding: OrganisationBranding | null;
}

export interface BrandingStore {
  getSnapshot(): BrandingSnapshot;
  subscribe(listener: () => void): () => void;
  /** Reads the cached branding, then asks the server once its configuration is known; idempotent. */
  start(): Promise<void>;
}

const CACHE_PREFIX = 'cairn-branding:';

export function createBrandingStore(
  api: Pick<ApiClient, 'get'>,
  configStore: Pick<ServerConfigStore, 'whenLoaded'>,
  hostname: string,
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null,
): BrandingStore {
  const cacheKey = `${CACHE_PREFIX}${hostname}`;
  let snapshot: BrandingSnapshot = { branding: readCache() };
  const listeners = new Set<() => void>();
  let started: Promise<void> | undefined;

  function readCache(): OrganisationBranding | null {
    try {
      const raw = storage?.getItem(cacheKey);
      const parsed = raw ? OrganisationBranding.safeParse(JSON.parse(raw)) : null;
      return parsed?.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  function set(branding: OrganisationBranding | null): void {
    try {
      if (branding) storage?.setItem(cacheKey, JSON.stringify(branding));
      else storage?.removeItem(cacheKey);
    } catch {
      // Storage full or blocked: the branding still applies for this visit.
    }
    if (JSON.stringify(branding) === JSON.stringify(snapshot.branding)) return;
    snapshot = { branding };
    for (const listener of listeners) listener();
  }

  async function load(): Promise<void> {
    const { config } = await configStore.whenLoaded();
    // Offline (no configuration) the cached branding stays.
    if (!config) return;
    const subdomain = subdomainOfHost(hostname, config.baseDomain);
    if (!subdomain) return set(null);
    try {
      set(await api.get(`/organisations?subdomain=${encodeURIComponent(subdomain)}`, OrganisationBranding));
    } catch (caught) {
      // An organisation that no longer has this subdomain: plain Cairn. Other failures keep the cache.
      if (caught instanceof ApiError && caught.code === 'ORG_DOESNT_EXISTS') set(null);
    }
  }

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      started ??= load();
      return started;
    },
  };
}

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export const brandingStore = createBrandingStore(
  getApiClient(),
  serverConfigStore,
  typeof location === 'undefined' ? '' : location.hostname,
  browserStorage(),
);

/** The organisation this host is branded for, or null (plain Cairn). */
export function useBranding(): OrganisationBranding | null {
  return useSyncExternalStore(brandingStore.subscribe, brandingStore.getSnapshot).branding;
}
