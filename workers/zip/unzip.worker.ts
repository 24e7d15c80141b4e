// Worker entry: exposes the unzip API and nothing else (the logic lives in createUnzipApi.ts and is
// tested there). Started for one archive by src/platform/unzipClient.ts and ended after it.
import { expose } from 'comlink';
import { createUnzipApi } from './createUnzipApi';

expose(createUnzipApi());
