/**
 * Where a webhook may send (issue 24, docs/decisions.md "The developer API (issue 24): webhooks"):
 * a delivery is a request the server makes to an address a user chose, so without these rules a
 * user could make the server call its own loopback, the private network behind it, or a cloud
 * metadata service (server-side request forgery). Checked when the webhook is configured and again
 * at each delivery, on every address the host name resolves to; the delivery then connects to the
 * address checked (never a second DNS answer, which a rebinding name could point elsewhere).
 */
import dns from 'node:dns/promises';
import net from 'node:net';

/** What POST /api/webhooks answers for a refused address. */
export const WEBHOOK_ADDRESS_REFUSED = 'Webhook URLs must point to a public address';

/** Ranges no webhook may reach unless WEBHOOK_ALLOWED_ADDRESSES lets them. */
const REFUSED_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, with the cloud metadata service 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const REFUSED_V6: readonly [string, number][] = [
  ['::', 96], // unspecified, loopback ::1, and the old IPv4-compatible form
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, with AWS's metadata fd00:ec2::254
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
];

const REFUSED = new net.BlockList();
for (const [address, prefix] of REFUSED_V4) REFUSED.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of REFUSED_V6) REFUSED.addSubnet(address, prefix, 'ipv6');

/** The addresses WEBHOOK_ALLOWED_ADDRESSES allows despite the rules (tests, internal deployments). */
export function allowedAddressList(entries: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** The IPv4 address an IPv6 one stands for (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), or null. */
export function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const isMapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const isNat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (!isMapped && !isNat64) return null;
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The eight 16-bit groups of an IPv6 address (dotted IPv4 tail included), or null when it is not one. */
function expandIpv6(address: string): number[] | null {
  if (net.isIPv6(address) === false) return null;
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const bytes = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${(((bytes[0] ?? 0) << 8) | (bytes[1] ?? 0)).toString(16)}:${(((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const zeros = 8 - left.length - right.length;
  return [...left, ...Array<number>(Math.max(0, zeros)).fill(0), ...right];
}

/**
 * Whether a webhook may reach `address` (an IP literal): a public address, or one the allow list
 * names. IPv4-mapped and NAT64 IPv6 forms are judged as the IPv4 address they carry.
 */
export function isAddressAllowed(address: string, allowed: net.BlockList): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allowed.check(address, type)) return true;
  const inner = family === 6 ? embeddedIpv4(address) : null;
  if (inner !== null) return allowed.check(inner, 'ipv4') || !REFUSED.check(inner, 'ipv4');
  return !REFUSED.check(address, type);
}

export interface WebhookTarget {
  url: URL;
  /** The address checked, which the delivery connects to. */
  address: string;
  family: 4 | 6;
}

/** Why a URL is not a webhook target: its text for the user and the log. */
export class WebhookTargetError extends Error {
  override name = 'WebhookTargetError';
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Resolves an https URL's host and checks every address it has: one refused address refuses the
 * URL (a name answering a public and a private address could be made to reach the private one).
 * Throws WebhookTargetError with the user-facing reason.
 */
export async function resolveWebhookTarget(rawUrl: string, allowed: net.BlockList, resolve: Resolver = systemResolver): Promise<WebhookTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new WebhookTargetError('Enter a valid URL');
  }
  if (url.protocol !== 'https:') throw new WebhookTargetError('The URL must start with https://');
  if (url.username || url.password) throw new WebhookTargetError('A webhook URL cannot carry a user name or password');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = net.isIP(hostname) ? [{ address: hostname, family: net.isIP(hostname) }] : await resolve(hostname);
  } catch {
    throw new WebhookTargetError(`The host ${hostname} could not be found`);
  }
  const first = addresses[0];
  if (!first) throw new WebhookTargetError(`The host ${hostname} could not be found`);
  if (!addresses.every(({ address }) => isAddressAllowed(address, allowed))) throw new WebhookTargetError(WEBHOOK_ADDRESS_REFUSED);
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
