/**
 * The relay wallet pays for every bundle. It is a JWK file the operator provides (ARWEAVE_WALLET);
 * for the embedded arlocal one is created in DATA_DIR. Written with mode 600 and never logged.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ArweaveClient, JWKInterface } from './arweaveClient';

export function readWallet(file: string): JWKInterface {
  const jwk = JSON.parse(fs.readFileSync(file, 'utf8')) as JWKInterface;
  if (jwk.kty !== 'RSA' || typeof jwk.n !== 'string' || typeof jwk.d !== 'string') throw new Error(`${file} is not an Arweave JWK wallet`);
  return jwk;
}

/** Reads `file`, or generates a wallet and writes it there (mode 600). */
export async function loadOrCreateWallet(file: string, arweave: ArweaveClient): Promise<JWKInterface> {
  if (fs.existsSync(file)) return readWallet(file);
  const jwk = await arweave.wallets.generate();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(jwk), { mode: 0o600 });
  fs.renameSync(temp, file);
  return jwk;
}
