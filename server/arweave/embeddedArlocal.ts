/**
 * With no ARWEAVE_GATEWAY, `npm start` runs an arlocal gateway in the process (development and
 * self-hosting trials): its data under DATA_DIR/arlocal, a relay wallet in DATA_DIR (mode 600)
 * minted tokens, and a block mined every ARLOCAL_MINE_MS so statuses move on to COMMITTED.
 */
import net from 'node:net';
import path from 'node:path';
import { arweaveFor, type JWKInterface, newArLocal } from './arweaveClient';
import { loadOrCreateWallet } from './wallet';

/** Winston minted to the relay wallet when its balance runs low (arlocal only). */
const MINT_WINSTON = '1000000000000000000';

export interface EmbeddedGateway {
  gatewayUrl: string;
  wallet: JWKInterface;
  /** Mines one block now. */
  mine(): Promise<void>;
  stop(): Promise<void>;
}

export async function startEmbeddedGateway(options: {
  dataDir: string;
  port: number | null;
  mineMs: number | null;
  walletFile?: string | null;
}): Promise<EmbeddedGateway> {
  const port = options.port ?? (await freePort());
  const arlocal = newArLocal(port, path.join(options.dataDir, 'arlocal'));
  await arlocal.start();
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const arweave = arweaveFor(gatewayUrl);
  const wallet = await loadOrCreateWallet(options.walletFile ?? path.join(options.dataDir, 'arweave-wallet.json'), arweave);
  const address = await arweave.wallets.jwkToAddress(wallet);
  const balance = await arweave.wallets.getBalance(address);
  if (BigInt(/^\d+$/.test(balance) ? balance : '0') < BigInt(MINT_WINSTON) / 2n) await expectOk(fetch(`${gatewayUrl}/mint/${address}/${MINT_WINSTON}`));
  const mine = async () => {
    await expectOk(fetch(`${gatewayUrl}/mine`));
  };
  let timer: NodeJS.Timeout | null = null;
  if (options.mineMs) {
    timer = setInterval(() => void mine().catch(() => undefined), options.mineMs);
    timer.unref();
  }
  return {
    gatewayUrl,
    wallet,
    mine,
    stop: async () => {
      if (timer) clearInterval(timer);
      await arlocal.stop();
    },
  };
}

async function expectOk(response: Promise<Response>): Promise<void> {
  const answer = await response;
  if (!answer.ok) throw new Error(`arlocal answered ${answer.status}`);
}

/** A port free right now on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('No port'))));
    });
  });
}
