import type { ArweaveConfig } from '../../src/protocol/arweave';

/**
 * Viewer links for the client: viewblock for the public network, the gateway's own endpoints
 * otherwise (arlocal has no explorer, so links there show the raw transaction and wallet).
 */
export function arweaveConfigFor(gatewayUrl: string, walletAddress: string): ArweaveConfig {
  const base = gatewayUrl.replace(/\/+$/, '');
  if (/^https:\/\/(www\.)?arweave\.net$/.test(base)) {
    return {
      gatewayUrl: base,
      txViewerUrl: 'https://viewblock.io/arweave/tx/{txId}',
      contractViewerUrl: `https://viewblock.io/arweave/address/${walletAddress}`,
    };
  }
  return { gatewayUrl: base, txViewerUrl: `${base}/tx/{txId}`, contractViewerUrl: `${base}/wallet/${walletAddress}/balance` };
}
