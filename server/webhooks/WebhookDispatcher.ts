/**
 * Sends queued webhook deliveries (issue 24): signed (Standard Webhooks), one POST per attempt,
 * each attempt logged as its own entry and pushed live to the user's sockets; a failed attempt
 * (no 2xx, a redirect, a timeout, a refused address) is retried after RETRY_DELAYS_MS, at most
 * WEBHOOK_MAX_ATTEMPTS attempts in all. The queue is rows (webhook_deliveries), so retries survive
 * a restart; every process runs a dispatcher and claims a row before sending it, so a delivery is
 * sent by one of them. A process that dies mid-attempt leaves the row to be claimed again after
 * the lease: the receiver may then see the same `webhook-id` twice, which Standard Webhooks
 * receivers deduplicate on.
 */
import crypto from 'node:crypto';
import https from 'node:https';
import type { BlockList, LookupFunction } from 'node:net';
import type { Kysely } from 'kysely';
import { WEBHOOK_LOG_BODY_MAX } from '../../src/protocol/developers';
import type { Database } from '../db/Database';
import { toDbBool } from '../db/dbBool';
import type { Clock } from '../services/Clock';
import { resolveWebhookTarget, type Resolver, type WebhookTarget, WebhookTargetError } from './webhookTarget';
import { webhookHeaders } from './webhookSignature';
import { PassLoop } from '../passLoop';

/** Waits before the 2nd, 3rd, 4th and 5th attempts: 5 s, 30 s, 2 min, 10 min. */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000] as const;
/** The first attempt and its retries. */
export const WEBHOOK_MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export interface DispatcherOptions {
  /** Waits before each retry; its length + 1 is the most attempts. Default RETRY_DELAYS_MS. */
  retryDelaysMs?: readonly number[];
  /** A receiver has this long to answer, body included. Default 10 s. */
  timeoutMs?: number;
  /** The longest wait between passes (rows queued by another process). Default 5 s. */
  pollMs?: number;
  /** A claimed row is left to other processes again after this (the claimer died). Default 2 min. */
  leaseMs?: number;
  /** Certificate authorities a receiver's certificate must chain to; default the system's. Tests pass their own. */
  ca?: string | Buffer;
  /** Host name resolution; the system's by default. */
  resolve?: Resolver;
}

export interface DispatcherDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: { warn(object: unknown, message?: string): void; error(object: unknown, message?: string): void };
  /** WEBHOOK_ALLOWED_ADDRESSES (webhookTarget.ts). */
  allowed: BlockList;
  /** A log entry was written for `userId` (to their sockets, through the bus). */
  onLogged: (userId: string, logId: string) => void;
  options?: DispatcherOptions;
}

/** How one attempt ended. */
interface Outcome {
  statusCode: number | null;
  body: string;
  delivered: boolean;
}

const BATCH = 20;

export class WebhookDispatcher {
  private readonly options: Required<Omit<DispatcherOptions, 'ca' | 'resolve'>> & Pick<DispatcherOptions, 'ca' | 'resolve'>;
  private readonly loop: PassLoop;

  constructor(private readonly deps: DispatcherDeps) {
    this.options = { retryDelaysMs: RETRY_DELAYS_MS, timeoutMs: 10_000, pollMs: 5_000, leaseMs: 120_000, ...deps.options };
    this.loop = new PassLoop(
      () => this.runOnce(),
      () => this.nextDelay().catch(() => this.options.pollMs),
      (error) => this.deps.log.error({ err: error }, 'webhook dispatcher pass failed'),
      true,
    );
  }

  /** Starts the loop; rows left from a previous run are picked up by the first pass. */
  start(): void {
    this.loop.start();
  }

  /** Runs a pass now (a delivery was queued); during a pass, another follows it at once. */
  wake(): void {
    this.loop.wake();
  }

  /** Stops the loop and waits for the attempts in progress. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One pass: every due delivery is attempted. Also for tests. */
  async runOnce(): Promise<void> {
    await this.loop.exclusive(() => this.pass());
  }

  /** Until the next queued row is due, at most the poll interval. */
  private async nextDelay(): Promise<number> {
    const next = await this.deps.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('attempted_at', 'is', null)
      .executeTakeFirst();
    if (next?.at === null || next?.at === undefined) return this.options.pollMs;
    return Math.max(0, Math.min(this.options.pollMs, Number(next.at) - this.deps.clock.now()));
  }

  private async pass(): Promise<void> {
    for (;;) {
      const now = this.deps.clock.now();
      const due = await this.deps.db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .select(['d.id', 'd.user_id', 'd.webhook_id', 'd.event', 'd.event_id', 'd.payload', 'd.attempt', 'd.next_attempt_at', 'w.url', 'w.secret'])
        .where('d.attempted_at', 'is', null)
        .where('d.next_attempt_at', '<=', now)
        .orderBy('d.next_attempt_at')
        .limit(BATCH)
        .execute();
      if (due.length === 0 || this.loop.isStopped) return;
      const claimed = [];
      for (const row of due) {
        // The claim: only the process whose update matched the row's old due time sends it.
        const result = await this.deps.db
          .updateTable('webhook_deliveries')
          .set({ next_attempt_at: now + this.options.leaseMs })
          .where('id', '=', row.id)
          .where('attempted_at', 'is', null)
          .where('next_attempt_at', '=', row.next_attempt_at)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) claimed.push(row);
      }
      await Promise.all(claimed.map((row) => this.attempt(row)));
      if (due.length < BATCH) return;
    }
  }

  private async attempt(row: {
    id: string;
    user_id: string;
    webhook_id: string;
    event: string;
    event_id: string;
    payload: string;
    attempt: number;
    url: string;
    secret: string;
  }): Promise<void> {
    const outcome = await this.send(row);
    const now = this.deps.clock.now();
    const retryDelay = outcome.delivered ? undefined : this.options.retryDelaysMs[row.attempt - 1];
    try {
      const logged = await this.deps.db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('webhook_deliveries')
          .set({
            attempted_at: now,
            url: row.url,
            status_code: outcome.statusCode,
            response_body: outcome.body.slice(0, WEBHOOK_LOG_BODY_MAX),
            delivered: toDbBool(outcome.delivered),
          })
          .where('id', '=', row.id)
          .where('attempted_at', 'is', null)
          .executeTakeFirst();
        // Removed meanwhile (the webhook was deleted): nothing to log, nothing to retry.
        if (Number(result.numUpdatedRows) === 0) return false;
        if (retryDelay !== undefined) {
          await trx
            .insertInto('webhook_deliveries')
            .values({
              id: crypto.randomUUID(),
              webhook_id: row.webhook_id,
              user_id: row.user_id,
              event: row.event,
              event_id: row.event_id,
              payload: row.payload,
              attempt: row.attempt + 1,
              url: null,
              status_code: null,
              response_body: null,
              created_at: now,
              next_attempt_at: now + retryDelay,
              attempted_at: null,
            })
            .execute();
        }
        return true;
      });
      if (logged) this.deps.onLogged(row.user_id, row.id);
    } catch (error) {
      // The webhook was deleted between the update and the retry's insert (its foreign key).
      this.deps.log.warn({ err: error, deliveryId: row.id }, 'webhook attempt not logged');
    }
  }

  /** One signed POST to the webhook, to the address checked now. Never throws. */
  private async send(row: { event_id: string; payload: string; url: string; secret: string }): Promise<Outcome> {
    let target: WebhookTarget;
    try {
      target = await resolveWebhookTarget(row.url, this.deps.allowed, this.options.resolve);
    } catch (error) {
      const message = error instanceof WebhookTargetError ? error.message : 'The webhook URL could not be checked';
      return { statusCode: null, body: message, delivered: false };
    }
    const timestamp = Math.floor(this.deps.clock.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Cairn-Webhooks/1',
      ...webhookHeaders(row.secret, row.event_id, timestamp, row.payload),
    };
    return postOnce(target, headers, row.payload, this.options.timeoutMs, this.options.ca);
  }
}

/**
 * POSTs `body` to `target.address` (no DNS lookup of its own: `lookup` answers the checked
 * address, so a rebinding name cannot switch it), verifying the certificate against the URL's
 * host name. A redirect is an answer like any other (never followed); only 2xx is delivered.
 */
function postOnce(target: WebhookTarget, headers: Record<string, string>, body: string, timeoutMs: number, ca: string | Buffer | undefined): Promise<Outcome> {
  const hostname = target.url.hostname.replace(/^\[|\]$/g, '');
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = https.request(
      {
        method: 'POST',
        hostname,
        port: target.url.port || 443,
        path: `${target.url.pathname}${target.url.search}`,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup,
        agent: false,
        ...(ca ? { ca } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const statusCode = response.statusCode ?? null;
        const done = () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, WEBHOOK_LOG_BODY_MAX);
          finish({ statusCode, body: text, delivered: statusCode !== null && statusCode >= 200 && statusCode < 300 });
        };
        response.on('data', (chunk: Buffer) => {
          // Keep what the log shows (characters may take 4 bytes); stop reading past it.
          if (size < WEBHOOK_LOG_BODY_MAX * 4) chunks.push(chunk);
          size += chunk.length;
          if (size >= WEBHOOK_LOG_BODY_MAX * 4) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ statusCode: null, body: `No answer within ${Math.round(timeoutMs / 1000)} s`, delivered: false });
    }, timeoutMs);
    request.on('error', (error) => finish({ statusCode: null, body: `The request failed: ${error.message}`, delivered: false }));
    request.end(body);
  });
}
