/**
 * Readiness and metrics (docs/operations.md, Health and metrics). GET /api/health stays the
 * liveness check (systemRoutes.ts); these two are for load balancers, orchestrators and
 * Prometheus.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../src/protocol/errors';
import type { Metrics } from '../metrics/Metrics';
import type { DefineRoute } from './route';

/** Each check's limit: a probe should wait a little longer than this (3 s or more). */
export const READY_CHECK_TIMEOUT_MS = 2_000;

/** A named dependency check: resolves when usable, throws (or times out) otherwise. */
export type ReadyCheck = () => Promise<void>;

export type CheckResult = { ok: true } | { ok: false; reason: string };

export interface Readiness {
  status: 'ready' | 'not_ready';
  checks: Record<string, CheckResult>;
}

interface Logger {
  warn(object: unknown, message?: string): void;
}

/**
 * Runs every check at once, each within READY_CHECK_TIMEOUT_MS. Concurrent calls share one run,
 * so hammering the (unauthenticated) route costs the database, the store and the gateway at most
 * one check each at a time.
 */
export function createReadiness(checks: Record<string, ReadyCheck>, log: Logger, timeoutMs = READY_CHECK_TIMEOUT_MS): () => Promise<Readiness> {
  let running: Promise<Readiness> | null = null;
  const run = async (): Promise<Readiness> => {
    const entries = await Promise.all(
      Object.entries(checks).map(async ([name, check]): Promise<[string, CheckResult]> => {
        try {
          await withTimeout(check(), timeoutMs);
          return [name, { ok: true }];
        } catch (error) {
          // The full error goes to the log only: the route is public, and messages may name
          // hosts, buckets or users.
          log.warn({ check: name, err: error }, 'readiness check failed');
          return [name, { ok: false, reason: shortReason(error) }];
        }
      }),
    );
    const results = Object.fromEntries(entries);
    return { status: entries.every(([, r]) => r.ok) ? 'ready' : 'not_ready', checks: results };
  };
  return () => {
    running ??= run().finally(() => {
      running = null;
    });
    return running;
  };
}

class CheckTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

async function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new CheckTimeout(ms)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** A reason safe to publish: a timeout, a system or SQL error code, an HTTP status; never a message. */
export function shortReason(error: unknown): string {
  if (error instanceof CheckTimeout) return error.message;
  if (error instanceof GatewayAnswer) return `answered HTTP ${error.status}`;
  const code = findCode(error);
  return code ? `failed (${code})` : 'failed';
}

function findCode(error: unknown, depth = 0): string | null {
  if (typeof error !== 'object' || error === null || depth > 3) return null;
  const code: unknown = Reflect.get(error, 'code');
  if (typeof code === 'string' && /^[A-Z0-9_]{2,32}$/.test(code)) return code;
  if (error instanceof AggregateError) return findCode(error.errors[0], depth + 1);
  return findCode(Reflect.get(error, 'cause'), depth + 1);
}

class GatewayAnswer extends Error {
  constructor(readonly status: number) {
    super(`gateway answered ${status}`);
  }
}

/** The gateway answers GET /info (arlocal and arweave.net both do). */
export function gatewayCheck(gatewayUrl: string): ReadyCheck {
  const url = `${gatewayUrl.replace(/\/+$/, '')}/info`;
  return async () => {
    const response = await fetch(url, { signal: AbortSignal.timeout(READY_CHECK_TIMEOUT_MS) });
    await response.body?.cancel();
    if (!response.ok) throw new GatewayAnswer(response.status);
  };
}

/**
 * GET /api/health/ready: 200 `{ status: 'ready', checks }` when every dependency answers, 503
 * `{ status: 'not_ready', checks }` naming each failing check with a short reason otherwise.
 * GET /api/metrics: Prometheus text, only with METRICS_TOKEN set and sent as a Bearer token.
 */
export function registerMonitoringRoutes(
  app: FastifyInstance,
  route: DefineRoute,
  options: { readiness: () => Promise<Readiness>; metrics: Metrics; metricsToken: string | null },
): void {
  route({
    method: 'GET',
    url: '/api/health/ready',
    auth: 'none',
    handler: async ({ reply }) => {
      const readiness = await options.readiness();
      return reply.status(readiness.status === 'ready' ? 200 : 503).send(readiness);
    },
  });

  const { metrics, metricsToken } = options;
  const expected = metricsToken === null ? null : digest(metricsToken);
  route({
    method: 'GET',
    url: '/api/metrics',
    auth: 'none',
    handler: async ({ req, reply }) => {
      // Unset: the route does not exist as far as anyone can tell.
      if (expected === null) throw new ApiError('NOT_FOUND', 'Not found');
      const header = req.headers.authorization ?? '';
      const given = /^Bearer (\S+)$/.exec(header)?.[1];
      // Compared as hashes, in constant time: the token's length and prefix do not leak.
      if (given === undefined || !crypto.timingSafeEqual(digest(given), expected)) {
        throw new ApiError('UNAUTHENTICATED', 'Send the METRICS_TOKEN as a Bearer token');
      }
      return reply.type(metrics.contentType).send(await metrics.text());
    },
  });

  // Every answer, errors and 404s included; the route pattern, or "unmatched" when no route took
  // the request (a raw URL would let anyone make a label per path).
  app.addHook('onResponse', async (req, reply) => {
    const labels = { method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1_000);
  });
}

function digest(text: string): Buffer {
  return crypto.createHash('sha256').update(text).digest();
}
