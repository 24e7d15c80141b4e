import { type ServerConfig, SupportRequest } from '../../src/protocol/auth';
import { ApiError } from '../../src/protocol/errors';
import { Address } from '../../src/protocol/primitives';
import { PROTOCOL_VERSION } from '../../src/protocol/version';
import { z } from 'zod';
import type { Config } from '../config';
import type { Services } from '../services/createServices';
import type { DefineRoute } from './route';

/** Health, the client's flags, error reports and profile photos. */
export function registerSystemRoutes(route: DefineRoute, services: Services, config: Config): void {
  route({
    method: 'GET',
    url: '/api/health',
    auth: 'none',
    // buildApp registers routes only after the database and OPAQUE setup are loaded.
    handler: async () => ({ status: 'ok' }),
  });

  route({
    method: 'GET',
    url: '/api/config',
    auth: 'none',
    handler: async (): Promise<ServerConfig> => ({
      maintenance: config.maintenance,
      readOnly: config.readOnly,
      seriousIssue: config.seriousIssue,
      sunsetBannerUrl: config.sunsetBannerUrl,
      protocolVersion: PROTOCOL_VERSION,
      signupsAllowed: config.signupsAllowed,
      smsAvailable: services.mfa.smsAvailable,
      // main.ts runs the embedded arlocal exactly when ARWEAVE_GATEWAY is unset.
      permanentOnEmbeddedGateway: config.arweaveGateway === null,
      baseDomain: config.baseDomain,
    }),
  });

  route({
    method: 'POST',
    url: '/api/support',
    body: SupportRequest,
    auth: 'optional',
    rateLimited: true,
    handler: async ({ body, caller }) => services.support.create(body, caller?.user.id ?? null),
  });

  route({
    method: 'GET',
    url: '/api/profile/photo/:address',
    params: z.strictObject({ address: Address }),
    auth: 'none',
    handler: async ({ params, reply }) => {
      const photo = await services.account.photo(params.address);
      if (!photo) throw new ApiError('NOT_FOUND', 'No photo');
      // A changed photo must show at once; ETag (Fastify's default is off) is not worth it for this size.
      return reply.header('cache-control', 'no-cache').type(photo.contentType).send(photo.bytes);
    },
  });
}
