/**
 * The operator's plans for the pricing page (SYNC_SPEC R111; spec 002 sections 3 and 7). Read
 * only; closed to passwordless (airdrop) sessions like every route not opened to them (spec 001:
 * they do not see Plans and billing).
 */
import { PlansResponse } from '../../src/protocol/plans';
import type { Services } from '../services/createServices';
import type { DefineRoute } from './route';

export function registerPlanRoutes(route: DefineRoute, services: Services): void {
  route({
    method: 'GET',
    url: '/api/plans',
    auth: 'required',
    handler: async ({ caller }): Promise<PlansResponse> => services.allowances.plansFor(caller.user.id),
  });
}
