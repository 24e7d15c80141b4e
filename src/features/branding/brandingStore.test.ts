/**
 * White-label mode on the device (R135): which host is an organisation's, what is kept for the
 * next (possibly offline) visit, and when the branding goes away.
 */
import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../protocol/auth';
import { ApiError } from '../../protocol/errors';
import type { OrganisationBranding } from '../../protocol/organisations';
import { subdomainOfHost } from '../../protocol/organisations';
import { createBrandingStore } from './brandingStore';
import { brandedTheme, shadesOf } from './brandTheme';

const ACME: OrganisationBranding = {
  id: 'org1',
  name: 'Acme',
  subdomain: 'acme',
  logo: 'data:image/png;base64,iVBORw0KGgo=',
  primaryColor: '#d9480f',
  secondaryColor: '#364fc7',
};

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

function configWith(baseDomain: string | null) {
  const config = { baseDomain } as ServerConfig;
  return { whenLoaded: async () => ({ config, isLoaded: true }) };
}

const offline = { whenLoaded: async () => ({ config: null, isLoaded: true }) };

describe('subdomainOfHost', () => {
  it('is the one label of letters and digits in front of the base domain', () => {
    expect(subdomainOfHost('acme.localhost', 'localhost')).toBe('acme');
    expect(subdomainOfHost('Acme2.Cairn.Example', 'cairn.example')).toBe('acme2');
    expect(subdomainOfHost('acme.cairn.example.', 'cairn.example')).toBe('acme');
    expect(subdomainOfHost('acme.localhost:18080', 'localhost')).toBe('acme');
  });

  it('is null on the main host, deeper or odd labels, other domains and without a base domain', () => {
    expect(subdomainOfHost('localhost', 'localhost')).toBeNull();
    expect(subdomainOfHost('a.b.localhost', 'localhost')).toBeNull();
    expect(subdomainOfHost('my-org.localhost', 'localhost')).toBeNull();
    expect(subdomainOfHost('acme.evil-localhost', 'localhost')).toBeNull();
    expect(subdomainOfHost('acme.localhost', null)).toBeNull();
  });
});

describe('the branding store', () => {
  it('asks the server for the subdomain and keeps the answer for the next visit', async () => {
    const asked: string[] = [];
    const api = { get: async (path: string) => (asked.push(path), ACME) } as never;
    const storage = memoryStorage();
    const store = createBrandingStore(api, configWith('localhost'), 'acme.localhost', storage);
    expect(store.getSnapshot().branding).toBeNull();
    await store.start();
    expect(asked).toEqual(['/organisations?subdomain=acme']);
    expect(store.getSnapshot().branding).toEqual(ACME);

    // The next visit offline shows the kept logo at once.
    const later = createBrandingStore({ get: async () => Promise.reject(new TypeError('offline')) } as never, offline, 'acme.localhost', storage);
    expect(later.getSnapshot().branding).toEqual(ACME);
    await later.start();
    expect(later.getSnapshot().branding).toEqual(ACME);
  });

  it('forgets an organisation whose subdomain is gone, but not on a network failure', async () => {
    const storage = memoryStorage();
    storage.setItem('cairn-branding:acme.localhost', JSON.stringify(ACME));
    const failing = createBrandingStore({ get: async () => Promise.reject(new TypeError('Failed to fetch')) } as never, configWith('localhost'), 'acme.localhost', storage);
    await failing.start();
    expect(failing.getSnapshot().branding).toEqual(ACME);

    const gone = createBrandingStore({ get: async () => Promise.reject(new ApiError('ORG_DOESNT_EXISTS', 'No organisation')) } as never, configWith('localhost'), 'acme.localhost', storage);
    await gone.start();
    expect(gone.getSnapshot().branding).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it('never asks on the main host, and ignores a kept answer that does not parse', async () => {
    const storage = memoryStorage();
    storage.setItem('cairn-branding:localhost', JSON.stringify({ ...ACME, logo: 42 }));
    let asked = 0;
    const store = createBrandingStore({ get: async () => (asked++, ACME) } as never, configWith('localhost'), 'localhost', storage);
    expect(store.getSnapshot().branding).toBeNull();
    await store.start();
    expect(asked).toBe(0);
    expect(store.getSnapshot().branding).toBeNull();
  });
});

describe('the branded theme', () => {
  it('makes ten shades with the organisation colour at shade 6, lighter before and darker after', () => {
    const shades = shadesOf('#d9480f');
    expect(shades).toHaveLength(10);
    expect(shades[6]).toBe('#d9480f');
    const brightness = (hex: string) => [1, 3, 5].reduce((sum, i) => sum + Number.parseInt(hex.slice(i, i + 2), 16), 0);
    for (let i = 1; i < 10; i++) expect(brightness(shades[i]!)).toBeLessThan(brightness(shades[i - 1]!));
  });

  it('uses the primary colour as the theme colour, and leaves the theme alone without one', () => {
    const base = { primaryColor: 'cairn' };
    expect(brandedTheme(base, ACME)).toMatchObject({ primaryColor: 'brand', autoContrast: true });
    expect(brandedTheme(base, { ...ACME, primaryColor: null })).toBe(base);
    expect(brandedTheme(base, null)).toBe(base);
  });
});
