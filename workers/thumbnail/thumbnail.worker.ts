// Worker entry: exposes the thumbnail API and nothing else (the logic lives in
// createThumbnailApi.ts). Started for one upload's thumbnail by src/platform/thumbnailClient.ts.
import { expose } from 'comlink';
import { createThumbnailApi } from './createThumbnailApi';

expose(createThumbnailApi());
