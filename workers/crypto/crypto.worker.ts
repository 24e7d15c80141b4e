// Worker entry: exposes the crypto API and nothing else (STYLE.md: the logic lives in
// createCryptoApi.ts and is tested there).
import { expose } from 'comlink';
import { createCryptoApi } from './createCryptoApi';

expose(createCryptoApi());
