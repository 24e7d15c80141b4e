/**
 * Account > Developers, tab 'API key' (issue 24; spec 002 sections 2, 4 and 7): the key's hint and
 * usage, and Generate / Rotate. Session only: the allowlist (apiKeyRoutes.ts) leaves these out, so
 * a key cannot read its own usage or rotate itself. Closed to passwordless (airdrop) sessions like
 * every route not opened to them.
 */
import { z } from 'zod';
import type { ApiKeyInfo, NewApiKey } from '../../src/protocol/developers';
import type { Services } from '../services/createServices';
import type { DefineRoute } from './route';

/** No body, or `{}`; anything else is a malformed request. */
const RotateApiKeyBody = z.strictObject({}).optional();

export function registerApiKeySettingsRoutes(route: DefineRoute, services: Services): void {
  route({
    method: 'GET',
    url: '/api/api-keys',
    auth: 'required',
    handler: async ({ caller }): Promise<ApiKeyInfo> => services.apiKeys.info(caller.user.id),
  });
  route({
    method: 'PUT',
    url: '/api/api-keys',
    auth: 'required',
    // An account change: limited per address like the other account changes.
    rateLimited: true,
    blockedWhenReadOnly: true,
    body: RotateApiKeyBody,
    handler: async ({ caller }): Promise<NewApiKey> => services.apiKeys.rotate(caller.user.id),
  });
}
