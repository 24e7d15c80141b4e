/**
 * GET /api/openapi.json (issue 24): the document of openApiDocument.ts, open to anyone (it holds
 * no account data). Built at the first request, once every route is registered, then kept: the
 * routes do not change while the server runs.
 */
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from './openApiDocument';
import type { DefineRoute } from './route';

export function registerOpenApiRoute(app: FastifyInstance, route: DefineRoute, publicUrl: string): void {
  let document: Record<string, unknown> | null = null;
  route({
    method: 'GET',
    url: '/api/openapi.json',
    auth: 'none',
    handler: async () => {
      document ??= buildOpenApiDocument(app.routeList, publicUrl);
      return document;
    },
  });
}
