/**
 * Route definition with validation at the edge: every route names its body, query and params
 * schemas from src/protocol, and its handler receives only parsed values. Nothing reaches a
 * handler unvalidated, and nothing is cast.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../src/protocol/errors';
import type { Session } from '../services/SessionService';
import type { Services } from '../services/createServices';
import type { User } from '../services/UserService';
import { API_KEY_PREFIX } from '../../src/protocol/developers';
import { allowsApiKey, API_KEY_REFUSAL } from './apiKeyRoutes';
import { allowsPasswordless, PASSWORDLESS_REFUSAL } from './passwordlessRoutes';
import { readSessionToken, clearSessionCookie } from './sessionCookie';

export type AuthMode = 'none' | 'optional' | 'required';

/** What the route knows about its caller: a signed-in session, or the account's API key (issue 24). */
export type Caller = SessionCaller | ApiKeyCaller;

export interface SessionCaller {
  via: 'session';
  session: Session;
  user: User;
}

/** A request made with the account's API key: no session; only the routes of apiKeyRoutes.ts. */
export interface ApiKeyCaller {
  via: 'apiKey';
  session: null;
  user: User;
}

/**
 * The caller's session. Routes about the session itself (logout, re-authentication, sessions) are
 * not open to API keys, so a key never gets here; if one did, it is refused rather than confused
 * with a session.
 */
export function sessionOf(caller: Caller): Session {
  if (caller.via !== 'session') throw new ApiError('FORBIDDEN', API_KEY_REFUSAL);
  return caller.session;
}

/** Validation and policy of a route, kept in its Fastify config so hooks and tests can read it. */
export interface RouteMeta {
  body: z.ZodType | null;
  query: z.ZodType;
  params: z.ZodType | null;
  auth: AuthMode;
  rateLimited: boolean;
  /** Answered 403 READ_ONLY while CAIRN_READ_ONLY is on. */
  blockedWhenReadOnly: boolean;
  /**
   * Open to passwordless (airdrop) sessions (passwordlessRoutes.ts); otherwise they get 403. Unset
   * on routes defined outside `createRouteDefiner` (the WebSocket, which only relays the caller's
   * own vaults' pokes and notifications).
   */
  allowsPasswordless?: boolean;
  /** Open to requests made with an API key (apiKeyRoutes.ts); otherwise they get 403. */
  allowsApiKey?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    cairn?: RouteMeta;
  }
}

/** No query parameters: an unknown one is a client error, not something to ignore. */
export const EmptyQuery = z.strictObject({});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type CallerFor<A extends AuthMode> = A extends 'required' ? Caller : Caller | null;

export interface RouteContext<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType, A extends AuthMode> {
  body: z.output<B>;
  query: z.output<Q>;
  params: z.output<P>;
  caller: CallerFor<A>;
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteSpec<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType, A extends AuthMode> {
  method: Method;
  url: string;
  body?: B;
  query?: Q;
  params?: P;
  auth: A;
  rateLimited?: boolean;
  blockedWhenReadOnly?: boolean;
  /**
   * Also limits the route per account (issue 18): the key names the account the request is about
   * (its e-mail, the user of a two-factor challenge, the caller's), or null for none. AUTH_RATE_LIMIT a minute
   * per key and route beside the per-IP limit, so rotating addresses does not multiply the
   * attempts on one account.
   */
  accountKey?: (ctx: { body: z.output<B>; caller: CallerFor<A> }) => Promise<string | null> | string | null;
  /** Bytes; the app default is 64 KiB. */
  bodyLimit?: number;
  /** The JSON answer (status 200 unless the handler set another), or the reply when it sent one. */
  handler: (ctx: RouteContext<B, Q, P, A>) => Promise<unknown>;
}

export type DefineRoute = <
  B extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = typeof EmptyQuery,
  P extends z.ZodType = z.ZodUndefined,
  A extends AuthMode = 'none',
>(
  spec: RouteSpec<B, Q, P, A>,
) => void;

/**
 * Returns `route(spec)`, which registers a Fastify route whose handler runs, in order: caller
 * lookup (401 when required and missing), then query, params and body validation (400
 * VALIDATION_FAILED), then `spec.handler`. Maintenance, read-only and rate limits run earlier,
 * in onRequest hooks.
 */
export function createRouteDefiner(
  app: FastifyInstance,
  services: Services,
  options: { authRateLimit: number },
): DefineRoute {
  // One key per request, read by the per-account limiter's key generator below.
  const accountKeys = new WeakMap<FastifyRequest, string>();
  return (spec) => {
    const accountLimiter = spec.accountKey
      ? app.createRateLimit({ max: options.authRateLimit, timeWindow: 60_000, keyGenerator: (req) => accountKeys.get(req) ?? '' })
      : null;
    const meta: RouteMeta = {
      body: spec.body ?? null,
      query: spec.query ?? EmptyQuery,
      params: spec.params ?? null,
      auth: spec.auth,
      rateLimited: spec.rateLimited ?? false,
      blockedWhenReadOnly: spec.blockedWhenReadOnly ?? false,
      allowsPasswordless: allowsPasswordless(spec.method, spec.url),
      allowsApiKey: allowsApiKey(spec.method, spec.url),
    };
    app.route({
      method: spec.method,
      url: spec.url,
      ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
      config: {
        cairn: meta,
        ...(meta.rateLimited
          ? {
              rateLimit: {
                max: options.authRateLimit,
                timeWindow: 60_000,
                keyGenerator: (req: FastifyRequest) => `${req.ip}|${req.routeOptions.url ?? req.url}`,
              },
            }
          : {}),
      },
      handler: async (req, reply) => {
        const caller = await findCaller(req, reply, services, spec.auth);
        if (caller?.via === 'apiKey') await admitApiKey(caller, meta.allowsApiKey ?? false, services, reply);
        if (caller?.user.passwordless && !meta.allowsPasswordless) throw new ApiError('FORBIDDEN', PASSWORDLESS_REFUSAL);
        const query = parse(meta.query, req.query, 'query');
        const params = meta.params ? parse(meta.params, req.params, 'params') : undefined;
        const body = meta.body ? parse(meta.body, req.body, 'body') : rejectBody(req.body);
        if (spec.accountKey && accountLimiter) {
          // Erased generics, as for the handler below: `body` is exactly the body schema's output.
          const account = await (spec.accountKey as (c: { body: unknown; caller: Caller | null }) => Promise<string | null> | string | null)({
            body,
            caller,
          });
          if (account !== null) {
            accountKeys.set(req, `${spec.method} ${spec.url}|${account}`);
            const limit = await accountLimiter(req);
            if (!limit.isAllowed && limit.isExceeded) {
              void reply.header('retry-after', String(limit.ttlInSeconds));
              throw new ApiError('RATE_LIMITED', `Too many attempts for this account. Please try again in ${limit.ttlInSeconds} seconds.`);
            }
          }
        }
        const ctx = { body, query, params, caller, req, reply };
        // The generic parameters are erased here; `parse` has produced exactly the schemas' outputs.
        const result = await (spec.handler as (c: typeof ctx) => Promise<unknown>)(ctx);
        if (reply.sent) return reply;
        return result;
      },
    });
  };
}

/** Parses `value` or throws 400 VALIDATION_FAILED with one entry per problem. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.slice(0, 20).map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  throw new ApiError('VALIDATION_FAILED', `Invalid ${where}`, details);
}

/** A route without a body schema takes no body; `{}` is tolerated (some clients always send one). */
function rejectBody(body: unknown): undefined {
  if (body === undefined || body === null) return undefined;
  parse(z.strictObject({}), body, 'body');
  return undefined;
}

async function findCaller(
  req: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  auth: AuthMode,
): Promise<Caller | null> {
  const caller = auth === 'none' ? null : await authenticate(req, services);
  if (auth === 'required' && !caller) {
    if (req.cookies.cairn_session) clearSessionCookie(reply);
    throw new ApiError('UNAUTHENTICATED', 'Please log in.');
  }
  return caller;
}

/**
 * Counts a request made with an API key (every one its key authenticates, refused or not: see
 * docs/decisions.md), then refuses it with 403 unless the route is open to keys (`allowed`).
 * Past the period's limit: 429 with a Retry-After of the seconds left in the period.
 */
export async function admitApiKey(caller: ApiKeyCaller, allowed: boolean, services: Services, reply: FastifyReply): Promise<void> {
  try {
    await services.apiKeys.count(caller.user.id);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'RATE_LIMITED') void reply.header('retry-after', String(services.apiKeys.secondsLeftInPeriod()));
    throw error;
  }
  if (!allowed) throw new ApiError('FORBIDDEN', API_KEY_REFUSAL);
}

/**
 * The caller of a session cookie or `Authorization: Bearer` token, or null. A bearer token that
 * starts with `cairn_` is an API key (session tokens are bare base64url); a key is taken from the
 * Authorization header only, never from a cookie.
 */
export async function authenticate(req: FastifyRequest, services: Services): Promise<Caller | null> {
  const token = readSessionToken(req);
  if (!token) return null;
  if (token.startsWith(API_KEY_PREFIX) && req.headers.authorization !== undefined) {
    const user = await services.apiKeys.authenticate(token);
    return user ? { via: 'apiKey', session: null, user } : null;
  }
  // Every signed-in request counts as the session's use, for the sessions list (SYNC_SPEC R80).
  const session = await services.sessions.authenticate(token, { userAgent: req.headers['user-agent'] });
  if (!session) return null;
  const user = await services.users.findById(session.userId);
  return user ? { via: 'session', session, user } : null;
}
