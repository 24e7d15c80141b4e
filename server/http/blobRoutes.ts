import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../src/protocol/errors';
import { Hex32, Id, Ok } from '../../src/protocol/primitives';
import { BlobAnnounceRequest, CHUNK_MAX_BYTES, ChunkParams } from '../../src/protocol/vaults';
import type { Services } from '../services/createServices';
import { createRouteDefiner, type DefineRoute } from './route';
import { VaultParams } from './vaultRoutes';

const BlobParams = z.strictObject({ vaultId: Id, blobId: Id });
/** The chunk PUT body: the raw bytes (absent for an empty chunk sent without a Content-Type). */
const ChunkBody = z.instanceof(Buffer).optional();

/**
 * Never in the browser's HTTP cache: offline copies live in a Cache Storage cache the app manages
 * (src/sync/offlineFiles.ts), which the user can see, clear, and which log out deletes.
 */
const CHUNK_CACHE_CONTROL = 'no-store';

/** Upload announcements, chunk PUT and GET, upload status, cancelled uploads' release. */
export function registerBlobRoutes(app: FastifyInstance, route: DefineRoute, services: Services, options: { authRateLimit: number }): void {
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

  // The chunk PUT lives in its own plugin scope: only there is application/octet-stream parsed
  // (and JSON is not), with a body limit of one chunk.
  // Not awaited: the scope loads with the rest at `app.ready()` (awaiting here would start the app).
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: CHUNK_MAX_BYTES }, (_req, body, done) => {
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
      bodyLimit: CHUNK_MAX_BYTES,
      handler: async ({ params, body, caller, req }) => {
        const header = Hex32.safeParse(req.headers['x-chunk-sha256']);
        if (!header.success) throw new ApiError('VALIDATION_FAILED', 'Send the chunk SHA-256 as lower-case hex in x-chunk-sha256');
        const bytes = body ?? Buffer.alloc(0);
        await services.blobs.putChunk(caller.user.id, params.vaultId, params.blobId, params.index, bytes, header.data);
        return Ok.parse({ ok: true });
      },
    });
  });
}
