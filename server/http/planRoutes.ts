/**
 * The operator's plans for the pricing page (SYNC_SPEC R111; spec 002 sections 3 and 7). Read
 * only; closed to passwordless (airdrop) sessions like every route not opened to them (spec 001:
 * they do not see Plans and billing).
 */
import {
  BillingDetails,
  BillingDetailsResponse,
  type EndSubscriptionResponse,
  Invoice,
  InvoiceListQuery,
  type InvoicePage,
  InvoiceParams,
  SubscribeRequest,
  type TopUpQuote,
  TopUpQuoteRequest,
  TopUpRequest,
  UpcomingInvoice,
  UpcomingInvoiceRequest,
} from '../../src/protocol/billing';
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
    handler: async ({ caller, body }): Promise<Invoice> => {
      await services.organisations.assertPaysOwnPlan(caller.user.id);
      return services.billing.subscribe(caller.user.id, body);
    },
  });

  // Invoices and ending a subscription (SYNC_SPEC R116, R117): the caller's own only.
  route({
    method: 'GET',
    url: '/api/billing/invoices',
    auth: 'required',
    query: InvoiceListQuery,
    handler: async ({ caller, query }): Promise<InvoicePage> => services.billing.listInvoices(caller.user.id, query),
  });
  route({
    method: 'GET',
    url: '/api/billing/invoices/:id/pdf',
    auth: 'required',
    params: InvoiceParams,
    handler: async ({ caller, params, reply }) => {
      const { fileName, bytes } = await services.billing.invoicePdf(caller.user.id, params.id);
      // The number is CAIRN- and digits (R114), safe inside the quotes as it is.
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(bytes));
    },
  });
  route({
    method: 'DELETE',
    url: '/api/billing/subscription',
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ caller }): Promise<EndSubscriptionResponse> => {
      await services.organisations.assertPaysOwnPlan(caller.user.id);
      return services.billing.endSubscription(caller.user.id);
    },
  });

  // Storage top-ups (SYNC_SPEC R118). No discount code, so not rate-limited like the two above.
  route({
    method: 'POST',
    url: '/api/billing/topup-quote',
    auth: 'required',
    body: TopUpQuoteRequest,
    handler: async ({ caller, body }): Promise<TopUpQuote> => {
      await services.organisations.assertPaysOwnPlan(caller.user.id);
      return services.billing.topUpQuote(caller.user.id, body);
    },
  });
  route({
    method: 'POST',
    url: '/api/billing/topups',
    auth: 'required',
    body: TopUpRequest,
    handler: async ({ caller, body }): Promise<Invoice> => {
      // An organisation's invitees use its storage; its creator buys it (R126).
      await services.organisations.assertPaysOwnPlan(caller.user.id);
      return services.billing.topUp(caller.user.id, body);
    },
  });
}
