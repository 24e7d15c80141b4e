import * as Comlink from 'comlink';
import type { CryptoApi } from '../../workers/crypto/CryptoApi';

let remote: Comlink.Remote<CryptoApi> | undefined;

/** The app's one crypto worker (see workers/crypto/CryptoApi.ts), started on first use. */
export function getCrypto(): Comlink.Remote<CryptoApi> {
  if (!remote) {
    const worker = new Worker(new URL('../../workers/crypto/crypto.worker.ts', import.meta.url), {
      type: 'module',
      name: 'cairn-crypto',
    });
    remote = Comlink.wrap<CryptoApi>(worker);
  }
  return remote;
}
