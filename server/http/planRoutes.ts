/**
 * The operator's plans for the pricing page (SYNC_SPEC R111; spec 002 sections 3 and 7). Read
 * only; closed to passwordless (airdrop) sessions like every route not opened to them (spec 001:
 * they do not see Plans and billing).
 */
import { BillingDetails, BillingDetailsResponse, Invoice, SubscribeRequest, TopUpQuote, TopUpQuoteRequest, TopUpRequest, UpcomingInvoice, UpcomingInvoiceRequest } from '../../src/protocol/billing';
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

  // Checkout (SYNC_SPEC R112-R114). The caller's own details only: no route reads another account's.
  route({
    method: 'GET',
    url: '/api/billing/details',
    auth: 'required',
    handler: async ({ caller }): Promise<BillingDetailsResponse> => ({ details: await services.billing.detailsOf(caller.user.id) }),
  });
  route({
    method: 'PUT',
    url: '/api/billing/details',
    auth: 'required',
    body: BillingDetails,
    handler: async ({ caller, body }): Promise<BillingDetailsResponse> => ({ details: await services.billing.saveDetails(caller.user.id, body) }),
  });
  route({
    method: 'POST',
    url: '/api/billing/upcoming-invoice',
    auth: 'required',
    // Both check a discount code: limited like sign-in, so codes cannot be guessed by the thousand.
    rateLimited: true,
    body: UpcomingInvoiceRequest,
    handler: async ({ body }): Promise<UpcomingInvoice> => services.billing.upcomingInvoice(body),
  });
  route({
    method: 'POST',
    url: '/api/billing/subscriptions',
    auth: 'required',
    rateLimited: true,
    body: SubscribeRequest,
    handler: async ({ caller, body }): Promise<Invoice> => services.billing.subscribe(caller.user.id, body),
  });

  // Storage top-ups (SYNC_SPEC R118). No discount code, so not rate-limited like the two above.
  route({
    method: 'POST',
    url: '/api/billing/topup-quote',
    auth: 'required',
    body: TopUpQuoteRequest,
    handler: async ({ caller, body }): Promise<TopUpQuote> => services.billing.topUpQuote(caller.user.id, body),
  });
  route({
    method: 'POST',
    url: '/api/billing/topups',
    auth: 'required',
    body: TopUpRequest,
    handler: async ({ caller, body }): Promise<Invoice> => services.billing.topUp(caller.user.id, body),
  });
}
