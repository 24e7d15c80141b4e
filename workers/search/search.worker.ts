// Worker entry: exposes the search API and nothing else (STYLE.md: the logic lives in
// createSearchApi.ts and searchIndex.ts and is tested there). Started by src/platform/searchClient.ts.
import { expose } from 'comlink';
import { createSearchApi } from './createSearchApi';

expose(createSearchApi());
