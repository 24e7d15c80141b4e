/**
 * The load client of tests/bench/deployment.ts: keeps a number of prepared https requests in
 * flight for a while and records each success's latency.
 *
 * It runs in a worker thread of its own (`runLoad`): the deployment's s3rver runs on the bench's
 * main thread (server/testing/s3server.ts), and on one event loop the two would delay each other,
 * so the client would measure s3rver's work on chunk PUTs as the server's latency.
 */
import https from 'node:https';
import os from 'node:os';
import { createHistogram } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { PushResponse } from '../../src/protocol/vaults';

/** One request of a phase, ready to send. */
export interface LoadRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /**
   * For answers whose 2xx can still carry a refusal: 'push' (a push answers 200 whatever became
   * of its operation) counts only an accepted operation as a success.
   */
  check?: 'push';
}

export interface LoadPlan {
  /** The deployment's https address, and its certificate (PEM) to trust. */
  url: string;
  certificate: string;
  concurrency: number;
  warmupSeconds: number;
  seconds: number;
  requests: LoadRequest[];
  /** 'once': each request is sent once, and the phase ends early should they run out; 'cycle': round and round. */
  order: 'once' | 'cycle';
}

export interface PhaseResult {
  successes: number;
  /** Count of failed requests by their status (or the refusal in a 2xx answer, or "no answer"). */
  errors: Map<string, number>;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  /** The prepared requests ran out before the phase's time. */
  exhausted: boolean;
  /** The machine's 1-minute load average when the phase ended: other work on the cores shows here. */
  load: number;
}

/** A push's one result: accepted (null), or what became of it. */
function pushRefusal(body: string): string | null {
  const [result] = PushResponse.parse(JSON.parse(body)).results;
  if (result?.status === 'accepted') return null;
  return `200 ${result?.status === 'rejected' ? `rejected ${result.error.code}` : 'without a result'}`;
}

const CHECKS: Record<NonNullable<LoadRequest['check']>, (body: string) => string | null> = { push: pushRefusal };

/**
 * Sends one request; resolves once the whole answer is read with null for a success, or what went
 * wrong: the status, the refusal in a 2xx answer (`refusal`, or the request's check), or "no answer"
 * (a socket error).
 */
export function send(agent: https.Agent, base: URL, request: LoadRequest, refusal = request.check && CHECKS[request.check]): Promise<string | null> {
  return new Promise((resolve) => {
    const outgoing = https.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: request.method,
        path: request.path,
        headers: { ...request.headers, ...(request.body ? { 'content-length': String(request.body.byteLength) } : {}) },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const parts: Buffer[] = [];
        response.on('error', () => resolve('no answer'));
        response.on('end', () => {
          if (!ok) resolve(String(status));
          else if (!refusal) resolve(null);
          else {
            try {
              resolve(refusal(Buffer.concat(parts).toString('utf8')));
            } catch {
              resolve(`${status} unreadable`);
            }
          }
        });
        if (ok && refusal) response.on('data', (part: Buffer) => parts.push(part));
        else response.resume();
      },
    );
    outgoing.on('error', () => resolve('no answer'));
    outgoing.end(request.body);
  });
}

/**
 * Keeps `concurrency` requests in flight for `warmupSeconds` unrecorded (connections opened, the
 * JIT warm), then `seconds` recorded; a request counts in the part of the phase it started in.
 */
async function runPhase(plan: LoadPlan): Promise<PhaseResult> {
  const base = new URL(plan.url);
  const agent = new https.Agent({ ca: plan.certificate, keepAlive: true, maxSockets: plan.concurrency });
  const histogram = createHistogram();
  const errors = new Map<string, number>();
  let successes = 0;
  let exhausted = false;
  let handedOut = 0;
  const next = (): LoadRequest | undefined =>
    plan.order === 'cycle' ? plan.requests[handedOut++ % plan.requests.length] : plan.requests[handedOut++];
  const startedAt = performance.now();
  const recordFrom = startedAt + plan.warmupSeconds * 1000;
  const endAt = recordFrom + plan.seconds * 1000;
  let lastEnd = recordFrom;
  const worker = async (): Promise<void> => {
    for (;;) {
      const now = performance.now();
      if (now >= endAt) return;
      const request = next();
      if (!request) {
        exhausted = true;
        return;
      }
      const recorded = now >= recordFrom;
      const sentAt = process.hrtime.bigint();
      const failure = await send(agent, base, request);
      const took = process.hrtime.bigint() - sentAt;
      if (!recorded) continue;
      lastEnd = Math.max(lastEnd, performance.now());
      if (failure === null) {
        successes += 1;
        histogram.record(took > 0n ? took : 1n);
      } else {
        errors.set(failure, (errors.get(failure) ?? 0) + 1);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: plan.concurrency }, worker));
  } finally {
    agent.destroy();
  }
  // Requests started before the end finish after it: the rate is over the time they took.
  const seconds = (Math.max(lastEnd, exhausted ? recordFrom : endAt) - recordFrom) / 1000;
  return {
    successes,
    errors,
    seconds,
    p50Ms: successes ? histogram.percentile(50) / 1e6 : Number.NaN,
    p99Ms: successes ? histogram.percentile(99) / 1e6 : Number.NaN,
    exhausted,
    load: os.loadavg()[0]!,
  };
}

/** Runs one phase of `plan` in a worker thread (see the file's comment). */
export function runLoad(plan: LoadPlan): Promise<PhaseResult> {
  // The worker loads this TypeScript file through tsx, as the bench itself was loaded.
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(boot, { eval: true, workerData: { loadPlan: plan } });
  return new Promise((resolve, reject) => {
    let result: PhaseResult | undefined;
    worker.once('message', (message: PhaseResult) => (result = message));
    worker.once('error', reject);
    worker.once('exit', (code) => (result ? resolve(result) : reject(new Error(`The load client's thread exited (${code}) without a result`))));
  });
}

const plan = isMainThread ? undefined : (workerData as { loadPlan?: LoadPlan } | null)?.loadPlan;
if (plan) {
  void runPhase(plan).then((result) => parentPort!.postMessage(result));
}
