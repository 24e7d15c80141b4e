import type { ArweaveConfig } from '../../src/protocol/arweave';

/**
 * What GET /config/arweave publishes (SYNC_SPEC R54). Viewer links for the client: viewblock for
 * the public network, the gateway's own endpoints for another reachable gateway. A gateway on a
 * loopback address (the embedded arlocal, or an operator's local node) is only the server's: its
 * address is never published (arlocal's /reset wipes all permanent storage, /mint and /mine
 * change it, with no sign-in), and the app reads items through GET /arweave/tx/{txId} instead.
 */
export function arweaveConfigFor(gatewayUrl: string, walletAddress: string): ArweaveConfig {
  const base = gatewayUrl.replace(/\/+$/, '');
  if (isLoopbackUrl(base)) return { gatewayUrl: null, txViewerUrl: null, contractViewerUrl: null };
  if (/^https:\/\/(www\.)?arweave\.net$/.test(base)) {
    return {
      gatewayUrl: base,
      txViewerUrl: 'https://viewblock.io/arweave/tx/{txId}',
      contractViewerUrl: `https://viewblock.io/arweave/address/${walletAddress}`,
    };
  }
  return { gatewayUrl: base, txViewerUrl: `${base}/tx/{txId}`, contractViewerUrl: `${base}/wallet/${walletAddress}/balance` };
}

/** localhost, 127.0.0.0/8 and ::1 (a URL that does not parse counts as loopback: publish nothing). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return true;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]' || host === '::1';
}
