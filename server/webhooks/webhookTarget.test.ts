/**
 * Where webhooks may send (issue 24): the server-side request forgery rules on addresses, their
 * IPv4-mapped and NAT64 disguises, the allow list, and host names that resolve to a refused
 * address among public ones.
 */
import { describe, expect, it } from 'vitest';
import { allowedAddressList, embeddedIpv4, isAddressAllowed, resolveWebhookTarget, WEBHOOK_ADDRESS_REFUSED } from './webhookTarget';

const none = allowedAddressList([]);

describe('webhook target addresses', () => {
  it('refuses loopback, private, link-local, CGNAT, "this network", multicast and metadata addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '169.254.169.254',
      '169.254.10.10',
      '100.64.0.1',
      '100.127.255.255',
      '0.0.0.0',
      '0.1.2.3',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '::',
      '::1',
      'fc00::1',
      'fd00:ec2::254',
      'fe80::1',
      'ff02::1',
    ]) {
      expect(isAddressAllowed(address, none), address).toBe(false);
    }
  });

  it('refuses the IPv4-mapped and NAT64 forms of a refused IPv4 address', () => {
    expect(embeddedIpv4('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('64:ff9b::a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIpv4('2606:4700::1')).toBeNull();
    for (const address of ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '0:0:0:0:0:ffff:c0a8:0101']) {
      expect(isAddressAllowed(address, none), address).toBe(false);
    }
    expect(isAddressAllowed('::ffff:93.184.216.34', none)).toBe(true);
  });

  it('allows public addresses', () => {
    for (const address of ['93.184.216.34', '1.1.1.1', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4007:80e::200e']) {
      expect(isAddressAllowed(address, none), address).toBe(true);
    }
    expect(isAddressAllowed('not an address', none)).toBe(false);
  });

  it('WEBHOOK_ALLOWED_ADDRESSES lets the listed addresses and ranges through, and only those', () => {
    const allowed = allowedAddressList(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(isAddressAllowed('127.0.0.1', allowed)).toBe(true);
    expect(isAddressAllowed('::ffff:127.0.0.1', allowed)).toBe(true);
    expect(isAddressAllowed('10.200.0.5', allowed)).toBe(true);
    expect(isAddressAllowed('::1', allowed)).toBe(true);
    expect(isAddressAllowed('127.0.0.2', allowed)).toBe(false);
    expect(isAddressAllowed('192.168.0.1', allowed)).toBe(false);
    expect(isAddressAllowed('169.254.169.254', allowed)).toBe(false);
  });

  it('refuses a host name when any of its addresses is refused, and connects to the address it checked', async () => {
    const resolver = (answers: Record<string, string[]>) => async (host: string) =>
      (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const resolve = resolver({ 'hooks.example.com': ['93.184.216.34'], 'rebind.example.com': ['93.184.216.34', '127.0.0.1'], 'internal.example.com': ['10.0.0.7'] });
    const target = await resolveWebhookTarget('https://hooks.example.com/cairn?x=1', none, resolve);
    expect(target.address).toBe('93.184.216.34');
    expect(target.family).toBe(4);
    await expect(resolveWebhookTarget('https://rebind.example.com/', none, resolve)).rejects.toThrow(WEBHOOK_ADDRESS_REFUSED);
    await expect(resolveWebhookTarget('https://internal.example.com/', none, resolve)).rejects.toThrow(WEBHOOK_ADDRESS_REFUSED);
    await expect(resolveWebhookTarget('https://nowhere.example.com/', none, resolve)).rejects.toThrow('could not be found');
    await expect(resolveWebhookTarget('https://127.0.0.1:8443/', none, resolve)).rejects.toThrow(WEBHOOK_ADDRESS_REFUSED);
    await expect(resolveWebhookTarget('https://[::1]/', none, resolve)).rejects.toThrow(WEBHOOK_ADDRESS_REFUSED);
    await expect(resolveWebhookTarget('https://[::ffff:169.254.169.254]/', none, resolve)).rejects.toThrow(WEBHOOK_ADDRESS_REFUSED);
    await expect(resolveWebhookTarget('http://hooks.example.com/', none, resolve)).rejects.toThrow('https://');
    await expect(resolveWebhookTarget('https://user:pw@hooks.example.com/', none, resolve)).rejects.toThrow('user name');
    expect((await resolveWebhookTarget('https://127.0.0.1:8443/', allowedAddressList(['127.0.0.1']), resolve)).address).toBe('127.0.0.1');
  });

  it('resolves with the system resolver by default (localhost is loopback, so refused)', async () => {
    await expect(resolveWebhookTarget('https://localhost/', none)).rejects.toThrow(WEBHOOK_ADDRESS_REFUSED);
  });
});
