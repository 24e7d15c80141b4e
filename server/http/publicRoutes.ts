import { PublicChunkParams, PublicVaultParams, type PublicVaultSummary } from '../../src/protocol/publicVaults';
import { PullQuery } from '../../src/protocol/vaults';
import { NftChainParams } from '../../src/protocol/nfts';
import type { Services } from '../services/createServices';
import { pullResponseStream } from '../services/VaultService';
import type { DefineRoute } from './route';

/**
 * Requests per minute, per IP and route, for the signed-out public reads: a viewer fetches one
 * page of operations per 500 and one request per chunk, so the sign-in limit would stop a
 * single download; this is that limit times PUBLIC_RATE_FACTOR.
 */
export const PUBLIC_RATE_FACTOR = 30;

/**
 * Read-only, unauthenticated access to PUBLIC vaults (SYNC_SPEC R40). `route` must be a definer
 * whose rate limit is the public one (app.ts). GET only: nothing under /api/public writes.
 */
export function registerPublicRoutes(route: DefineRoute, services: Services): void {
  route({
    method: 'GET',
    url: '/api/public/vaults/:vaultId',
    params: PublicVaultParams,
    auth: 'none',
    rateLimited: true,
    handler: async ({ params }): Promise<PublicVaultSummary> => services.publicVaults.summary(params.vaultId),
  });

  route({
    method: 'GET',
    url: '/api/public/vaults/:vaultId/ops',
    params: PublicVaultParams,
    query: PullQuery,
    auth: 'none',
    rateLimited: true,
    handler: async ({ params, query, reply }) => {
      const page = await services.publicVaults.pull(params.vaultId, query.after, query.limit);
      // PublicPullResponse: the members' page format (its operations spliced in as stored) plus the cursor.
      return reply.type('application/json; charset=utf-8').send(pullResponseStream(page));
    },
  });

  route({
    method: 'GET',
    url: '/api/public/vaults/:vaultId/nfts/chain',
    params: NftChainParams,
    auth: 'none',
    rateLimited: true,
    handler: async ({ params }) => services.publicVaults.nftChain(params.vaultId),
  });

  route({
    method: 'GET',
    url: '/api/public/vaults/:vaultId/blobs/:blobId/chunks/:index',
    params: PublicChunkParams,
    auth: 'none',
    rateLimited: true,
    handler: async ({ params, reply }) => {
      const { stream, size } = await services.publicVaults.readChunk(params.vaultId, params.blobId, params.index);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', size)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  });
}
