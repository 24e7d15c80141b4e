/**
 * Prometheus metrics of one server process (GET /api/metrics, docs/operations.md). One registry
 * per app, not prom-client's global one: tests build many apps in one process, and each must
 * count only its own requests. Counters are per process; the storage-transaction gauge reads the
 * database, so every process reports the same (shared) queue.
 */
import client from 'prom-client';
import { type Kysely, sql } from 'kysely';
import { StorageTxStatus } from '../../src/protocol/arweave';
import type { Database } from '../db/Database';

export interface MetricsDeps {
  db: Kysely<Database>;
  /** Open WebSocket connections in this process. */
  openSockets: () => number;
}

export class Metrics {
  readonly registry = new client.Registry();
  /** Labelled by the route's pattern (`/api/vaults/:vaultId/ops`), never the raw URL: no ids, bounded cardinality. */
  readonly httpRequests = new client.Counter({
    name: 'cairn_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new client.Histogram({
    name: 'cairn_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly operationsAccepted = new client.Counter({
    name: 'cairn_operations_accepted_total',
    help: 'Operations accepted by the push route (POST /api/vaults/ops)',
    registers: [this.registry],
  });
  readonly blobBytesStored = new client.Counter({
    name: 'cairn_blob_bytes_stored_total',
    help: 'Bytes received in accepted file chunk PUTs',
    registers: [this.registry],
  });
  readonly bundlesPosted = new client.Counter({
    name: 'cairn_relay_bundles_posted_total',
    help: 'Arweave bundles this process posted to the gateway',
    registers: [this.registry],
  });

  constructor(deps: MetricsDeps) {
    new client.Gauge({
      name: 'cairn_websocket_connections',
      help: 'Open WebSocket connections in this process',
      registers: [this.registry],
      collect() {
        this.set(deps.openSockets());
      },
    });
    new client.Gauge({
      name: 'cairn_storage_transactions',
      help: 'Permanent storage transactions (the relay queue) by status; the same in every process',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const rows = await deps.db
          .selectFrom('storage_transactions')
          .select(['status', sql<number>`count(*)`.as('n')])
          .groupBy('status')
          .execute();
        // Every status, 0 included, so a queue that empties shows 0 rather than a stale value.
        for (const status of StorageTxStatus.options) this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
      },
    });
  }

  /**
   * Adds the process's CPU, memory, event loop and garbage collector figures. Only for an app
   * that serves metrics: they install observers that live as long as the process.
   */
  collectProcessMetrics(): void {
    client.collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
