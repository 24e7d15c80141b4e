/**
 * The U token (docs/SYNC_SPEC.md R105-R109): the caller's balance and entries, the whole chain to
 * replay, and signed transfers. Closed to passwordless (airdrop) sessions like every route not
 * opened to them (spec 001 section 4: Rewards is hidden for them).
 */
import { ClaimList, ClaimRequest, ClaimResult } from '../../src/protocol/claims';
import {
  LedgerEntriesQuery,
  LedgerEntryPage,
  LedgerInfo,
  MyLedgerEntriesQuery,
  type TokenPrice,
  TokenBalance,
  TransferRequest,
  TransferResult,
} from '../../src/protocol/ledger';
import type { Services } from '../services/createServices';
import type { DefineRoute } from './route';

export function registerTokenRoutes(route: DefineRoute, services: Services): void {
  route({
    method: 'GET',
    url: '/api/utoken',
    auth: 'required',
    handler: async ({ caller }): Promise<TokenBalance> => services.ledger.balanceOf(caller.user),
  });

  route({
    method: 'GET',
    url: '/api/utoken/price',
    auth: 'required',
    handler: async (): Promise<TokenPrice> => services.tokenPrice.price(),
  });

  route({
    method: 'GET',
    url: '/api/utoken/entries',
    auth: 'required',
    query: MyLedgerEntriesQuery,
    handler: async ({ caller, query }): Promise<LedgerEntryPage> => services.ledger.entriesOf(caller.user.address, query.before, query.limit),
  });

  route({
    method: 'POST',
    url: '/api/utoken/transfers',
    auth: 'required',
    body: TransferRequest,
    rateLimited: true,
    accountKey: ({ caller }) => caller.user.id,
    blockedWhenReadOnly: true,
    handler: async ({ caller, body, reply }): Promise<TransferResult> => {
      const result = await services.ledger.transfer(caller.user, body);
      void reply.status(201);
      return result;
    },
  });

  route({
    method: 'GET',
    url: '/api/claims',
    auth: 'required',
    handler: async ({ caller }): Promise<ClaimList> => services.ledger.claimsOf(caller.user.id),
  });

  route({
    method: 'POST',
    url: '/api/claims',
    auth: 'required',
    body: ClaimRequest,
    rateLimited: true,
    accountKey: ({ caller }) => caller.user.id,
    blockedWhenReadOnly: true,
    handler: async ({ caller, body, reply }): Promise<ClaimResult> => {
      const result = await services.ledger.claim(caller.user, body);
      void reply.status(201);
      return result;
    },
  });

  route({
    method: 'GET',
    url: '/api/ledger',
    auth: 'required',
    handler: async (): Promise<LedgerInfo> => services.ledger.info(),
  });

  route({
    method: 'GET',
    url: '/api/ledger/entries',
    auth: 'required',
    query: LedgerEntriesQuery,
    handler: async ({ query }): Promise<LedgerEntryPage> => services.ledger.entries(query.after, query.limit),
  });
}
