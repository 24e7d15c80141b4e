// Worker entry: exposes the transfer API and nothing else (STYLE.md: the logic lives in
// createTransferApi.ts and is tested there). Several of these run at once (src/platform/transferClient.ts).
import { expose } from 'comlink';
import { createTransferApi } from './createTransferApi';

expose(createTransferApi({ fetch: (input, init) => fetch(input, init) }));
