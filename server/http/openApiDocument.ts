/**
 * GET /api/openapi.json (issue 24): the API described from what the server really checks. Every
 * route defined with `createRouteDefiner` keeps its body, query and params schemas (src/protocol)
 * in its Fastify config (`cairn`); they become the document's parameters and request bodies
 * through zod's own `z.toJSONSchema`, so the document cannot drift from the validation. Answers
 * are not described by schemas yet (the handlers' return types are not kept at run time): each
 * operation names the error shape every route shares.
 *
 * Operations a request with an API key may call (apiKeyRoutes.ts) carry the `apiKey` security
 * scheme and `x-cairn-api-key: true`; the others only `session`.
 */
import { Readable } from 'node:stream';
import { z } from 'zod';
import { CHUNK_BATCH_CONTENT_TYPE } from '../../src/protocol/vaults';
import { PROTOCOL_VERSION } from '../../src/protocol/version';
import type { RouteMeta } from './route';

export interface DescribedRoute {
  method: string;
  url: string;
  meta: RouteMeta | undefined;
}

type JsonSchema = Record<string, unknown>;

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** The one error shape of every route (src/protocol/errors.ts). */
const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
      },
    },
  },
};

/**
 * The request side of `schema` as JSON Schema 2020-12 (what OpenAPI 3.1 takes). A schema zod
 * cannot express (a stream body, a custom check) becomes `{}`, "anything", rather than failing
 * the whole document.
 */
export function requestSchemaOf(schema: z.ZodType): JsonSchema {
  try {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    delete json.$schema;
    return json;
  } catch {
    return {};
  }
}

/** `/api/vaults/:vaultId/ops` as OpenAPI writes it: `/api/vaults/{vaultId}/ops`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** Parameters (`in` path or query) from an object schema's properties. */
function parametersOf(schema: z.ZodType | null, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = requestSchemaOf(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(json.required) ? (json.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
  }));
}

function operationOf(method: string, url: string, meta: RouteMeta): JsonSchema {
  const security =
    meta.auth === 'none'
      ? []
      : [...(meta.auth === 'optional' ? [{}] : []), { session: [] }, ...(meta.allowsApiKey ? [{ apiKey: [] }] : [])];
  const body = meta.body ? requestSchemaOf(meta.body) : null;
  // The chunk PUT takes the chunk's bytes as a stream (its schema accepts the request stream),
  // which no JSON schema describes; another body zod cannot describe stays JSON of any shape.
  const isBytes = body !== null && Object.keys(body).length === 0 && meta.body?.safeParse(new Readable()).success === true;
  // The batch of small chunks is read whole: a manifest line of JSON, then the chunks' bytes.
  const isChunkBatch = body !== null && !isBytes && meta.body?.safeParse(Buffer.alloc(0)).success === true;
  const content = isBytes
    ? { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } }
    : isChunkBatch
      ? { [CHUNK_BATCH_CONTENT_TYPE]: { schema: { type: 'string', format: 'binary', description: 'One line of JSON (ChunkBatchManifest: the chunks, each with blobId, index, size and sha256), then each chunk\'s bytes in its order.' } } }
      : { 'application/json': { schema: body } };
  return {
    operationId: `${method.toLowerCase()}${openApiPath(url)
      .replace(/^\/api/, '')
      .replace(/[{}]/g, '')
      .split(/[/-]/)
      .filter(Boolean)
      .map((part) => part[0]?.toUpperCase() + part.slice(1))
      .join('')}`,
    security,
    ...(meta.allowsApiKey ? { 'x-cairn-api-key': true } : {}),
    parameters: [...parametersOf(meta.params, 'path'), ...parametersOf(meta.query, 'query')],
    ...(body
      ? {
          requestBody: {
            required: meta.body?.safeParse(undefined).success !== true,
            content,
          },
        }
      : {}),
    responses: {
      '200': { description: 'Success (JSON unless the route sends bytes).' },
      default: { description: 'An error, in the shape every route shares.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
  };
}

/** The OpenAPI 3.1 document of `routes` (the app's route list; HEAD and unvalidated routes are left out). */
export function buildOpenApiDocument(routes: readonly DescribedRoute[], serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const { method, url, meta } of routes) {
    if (!meta || !METHODS.has(method) || !url.startsWith('/api/')) continue;
    const path = openApiPath(url);
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = operationOf(method, url, meta);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cairn API',
      version: String(PROTOCOL_VERSION),
      description:
        'The API of this Cairn server. Vault content is end-to-end encrypted and every change is an operation signed by the user’s device keys: an API key authenticates a request, never a change. Requests with an API key count against the account’s limit per period (429 past it).',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: {
        session: { type: 'http', scheme: 'bearer', description: 'A session token from signing in (the app also sends it as the cairn_session cookie).' },
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'cairn_…', description: 'The account’s API key (Account > Developers), on the operations marked x-cairn-api-key only.' },
      },
    },
  };
}
