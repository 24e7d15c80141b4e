import { z } from 'zod';
import { Id } from '../../src/protocol/primitives';
import { VaultImportRequest } from '../../src/protocol/vaultImport';
import { PullQuery, PushRequest, type VaultStorageResponse } from '../../src/protocol/vaults';
import type { Services } from '../services/createServices';
import { pullResponseStream } from '../services/VaultService';
import { createMinuteBudget } from './minuteBudget';
import type { RateCounters } from './rateCounters';
import type { DefineRoute } from './route';
import type { Metrics } from '../metrics/Metrics';

/**
 * A push of up to PUSH_BATCH_MAX operations. Typical batches are a few KB; the largest legal
 * batch (every field at its maximum) would be tens of MB, and a client splits before that.
 */
export const PUSH_BODY_LIMIT = 4 * 1024 * 1024;

export const VaultParams = z.strictObject({ vaultId: Id });

/**
 * R99: how many import requests (one R84 run each, up to 4 MiB of operations to verify and
 * store) one account may send a minute. The app sends runs of 200 operations, one after the
 * other, so a restore of 24,000 operations a minute stays under it; a user cannot make the server
 * verify gigabytes a minute.
 */
export const IMPORT_RUNS_PER_MINUTE = 120;

/** Vault list, pushes and pulls of signed operations, storage figures. */
export function registerVaultRoutes(route: DefineRoute, services: Services, clock: () => number = Date.now, metrics?: Metrics, counters?: RateCounters): void {
  const spendImport = createMinuteBudget(IMPORT_RUNS_PER_MINUTE, 'Too many import requests: wait a minute and run the restore again', clock, counters && { counters, name: 'import' });

  route({
    method: 'GET',
    url: '/api/vaults',
    auth: 'required',
    handler: async ({ caller }) => ({ vaults: await services.vaults.list(caller.user.id) }),
  });

  route({
    method: 'POST',
    url: '/api/vaults/ops',
    body: PushRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    bodyLimit: PUSH_BODY_LIMIT,
    handler: async ({ body, caller }) => {
      const results = await services.operations.push(caller.user, body.ops);
      metrics?.operationsAccepted.inc(results.filter((r) => r.status === 'accepted').length);
      return { results };
    },
  });

  route({
    method: 'GET',
    url: '/api/vaults/:vaultId/ops',
    params: VaultParams,
    query: PullQuery,
    auth: 'required',
    handler: async ({ params, query, caller, reply }) => {
      const page = await services.vaults.pull(caller.user.id, params.vaultId, query.after, query.limit);
      return reply.type('application/json; charset=utf-8').send(pullResponseStream(page));
    },
  });

  // A vault's history from elsewhere, one R84 run per request (SYNC_SPEC R91-R93).
  route({
    method: 'POST',
    url: '/api/vaults/:vaultId/import',
    params: VaultParams,
    body: VaultImportRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    bodyLimit: PUSH_BODY_LIMIT,
    handler: async ({ params, body, caller }) => {
      await spendImport(caller.user.id);
      return services.imports.importRun(caller.user, params.vaultId, body);
    },
  });

  route({
    method: 'GET',
    url: '/api/storage',
    auth: 'required',
    handler: async ({ caller }) => services.storage.summary(caller.user.id),
  });

  // The upload confirmation's figure: uploads are charged to the vault's owner, not the caller.
  route({
    method: 'GET',
    url: '/api/vaults/:vaultId/storage',
    params: VaultParams,
    auth: 'required',
    handler: async ({ params, caller }): Promise<VaultStorageResponse> => ({
      available: await services.storage.availableIn(caller.user.id, params.vaultId),
    }),
  });
}
