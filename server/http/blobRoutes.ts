import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { ApiError } from '../../src/protocol/errors';
import { Hex32, Id, Ok } from '../../src/protocol/primitives';
import { BLOB_BATCH_LIMITS, BlobAnnounceRequest, BlobBatchAnnounceRequest, CHUNK_BATCH_CONTENT_TYPE, CHUNK_MAX_BYTES, ChunkBatchManifest, ChunkParams } from '../../src/protocol/vaults';
import type { Services } from '../services/createServices';
import { createRouteDefiner, type DefineRoute } from './route';
import { VaultParams } from './vaultRoutes';
import type { Metrics } from '../metrics/Metrics';

const BlobParams = z.strictObject({ vaultId: Id, blobId: Id });
/**
 * The chunk PUT body: the request's byte stream, read by the blob store as it arrives (absent for
 * an empty chunk sent without a Content-Type). Its size and hash are checked as it is read.
 */
const ChunkBody = z.instanceof(Readable).optional();

/**
 * Never in the browser's HTTP cache: offline copies live in a Cache Storage cache the app manages
 * (src/sync/offlineFiles.ts), which the user can see, clear, and which log out deletes.
 */
const CHUNK_CACHE_CONTROL = 'no-store';

/** Upload announcements, chunk PUT and GET, upload status, cancelled uploads' release. */
export function registerBlobRoutes(app: FastifyInstance, route: DefineRoute, services: Services, options: { authRateLimit: number; metrics?: Metrics }): void {
  route({
    method: 'POST',
    url: '/api/vaults/:vaultId/blobs',
    params: VaultParams,
    body: BlobAnnounceRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ params, body, caller }) => services.blobs.announce(caller.user.id, params.vaultId, body),
  });

  route({
    method: 'POST',
    url: '/api/vaults/:vaultId/blobs/batch',
    params: VaultParams,
    body: BlobBatchAnnounceRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ params, body, caller }) => ({ blobs: await services.blobs.announceMany(caller.user.id, params.vaultId, body.blobs) }),
  });

  route({
    method: 'GET',
    url: '/api/vaults/:vaultId/blobs/:blobId',
    params: BlobParams,
    auth: 'required',
    handler: async ({ params, caller }) => services.blobs.status(caller.user.id, params.vaultId, params.blobId),
  });

  route({
    method: 'DELETE',
    url: '/api/vaults/:vaultId/blobs/:blobId',
    params: BlobParams,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ params, caller }) => {
      await services.blobs.release(caller.user.id, params.vaultId, params.blobId);
      return Ok.parse({ ok: true });
    },
  });

  route({
    method: 'GET',
    url: '/api/vaults/:vaultId/blobs/:blobId/chunks/:index',
    params: ChunkParams,
    auth: 'required',
    handler: async ({ params, caller, reply }) => {
      const { stream, size } = await services.blobs.readChunk(caller.user.id, params.vaultId, params.blobId, params.index);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', size)
        .header('cache-control', CHUNK_CACHE_CONTROL)
        .send(stream);
    },
  });

  // The chunk PUT lives in its own plugin scope: only there is application/octet-stream taken
  // (and JSON is not), as a stream: a body of megabytes is written to disk as it arrives rather
  // than gathered and copied into one buffer first, which cost the server more CPU (mostly its
  // garbage collector) than hashing and writing the bytes (docs/decisions.md).
  // Not awaited: the scope loads with the rest at `app.ready()` (awaiting here would start the app).
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/octet-stream', (_req, payload, done) => {
      done(null, payload);
    });
    // Small chunks together: a few MiB at most, so read whole (the manifest comes first).
    scope.addContentTypeParser(CHUNK_BATCH_CONTENT_TYPE, { parseAs: 'buffer', bodyLimit: CHUNK_BATCH_BODY_LIMIT }, (_req, body, done) => {
      done(null, body);
    });
    const scopedRoute = createRouteDefiner(scope, services, options);
    scopedRoute({
      method: 'PUT',
      url: '/api/vaults/:vaultId/blobs/:blobId/chunks/:index',
      params: ChunkParams,
      body: ChunkBody,
      auth: 'required',
      blockedWhenReadOnly: true,
      handler: async ({ params, body, caller, req, reply }) => {
        const header = Hex32.safeParse(req.headers['x-chunk-sha256']);
        if (!header.success) throw new ApiError('VALIDATION_FAILED', 'Send the chunk SHA-256 as lower-case hex in x-chunk-sha256');
        // A body announced too large is refused before a byte of it is read (the store also
        // stops one that turns out larger than announced).
        if (Number(req.headers['content-length'] ?? 0) > CHUNK_MAX_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', 'The chunk is too large');
        // Read without destroying the request when the store stops early, so the client still
        // gets the answer; the connection then closes rather than read the rest.
        const source = body ? { [Symbol.asyncIterator]: () => body.iterator({ destroyOnReturn: false }) } : [];
        // Counted on the way for the metrics (the body may come without a Content-Length).
        let received = 0;
        const counted = {
          async *[Symbol.asyncIterator]() {
            for await (const part of source) {
              received += part.length;
              yield part;
            }
          },
        };
        try {
          await services.blobs.putChunk(caller.user.id, params.vaultId, params.blobId, params.index, counted, header.data);
          options.metrics?.blobBytesStored.inc(received);
        } catch (error) {
          if (body && !body.readableEnded) reply.header('connection', 'close');
          throw error;
        }
        return Ok.parse({ ok: true });
      },
    });

    scopedRoute({
      method: 'POST',
      url: '/api/vaults/:vaultId/blobs/chunks',
      params: VaultParams,
      body: ChunkBatchBody,
      auth: 'required',
      blockedWhenReadOnly: true,
      bodyLimit: CHUNK_BATCH_BODY_LIMIT,
      handler: async ({ params, body, caller }) => {
        const { manifest, bytes } = readChunkBatch(body);
        await services.blobs.putChunks(caller.user.id, params.vaultId, manifest, bytes);
        options.metrics?.blobBytesStored.inc(bytes.length);
        return Ok.parse({ ok: true });
      },
    });
  });
}

/** The manifest line of a chunk batch is at most this long (128 entries of ids and hashes fit well within). */
const MANIFEST_MAX_BYTES = 64 * 1024;
const CHUNK_BATCH_BODY_LIMIT = BLOB_BATCH_LIMITS.BYTES_MAX + MANIFEST_MAX_BYTES;
const ChunkBatchBody = z.instanceof(Buffer, { message: `Send the chunks as ${CHUNK_BATCH_CONTENT_TYPE}` });

/** Splits a chunk batch body into its checked manifest and the chunks' bytes (exactly as long as the manifest says). */
export function readChunkBatch(body: Buffer): { manifest: ChunkBatchManifest; bytes: Uint8Array } {
  const end = body.subarray(0, MANIFEST_MAX_BYTES).indexOf(0x0a);
  if (end < 0) throw new ApiError('VALIDATION_FAILED', 'The chunk batch starts with its manifest on one line');
  let json: unknown;
  try {
    json = JSON.parse(body.subarray(0, end).toString('utf8'));
  } catch {
    throw new ApiError('VALIDATION_FAILED', 'The chunk batch manifest is not JSON');
  }
  const parsed = ChunkBatchManifest.safeParse(json);
  if (!parsed.success) throw new ApiError('VALIDATION_FAILED', `The chunk batch manifest is invalid: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  const bytes = body.subarray(end + 1);
  const expected = parsed.data.chunks.reduce((sum, c) => sum + c.size, 0);
  if (bytes.length !== expected) throw new ApiError('VALIDATION_FAILED', `The chunk batch holds ${bytes.length} bytes of chunks; its manifest names ${expected}`);
  return { manifest: parsed.data, bytes };
}
