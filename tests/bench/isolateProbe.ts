/**
 * What each JavaScript isolate of the app holds while a bench runs: the page, its service worker
 * and its dedicated workers, probed over CDP. Used by the transfer and export benches.
 */
import type { CDPSession } from 'playwright-core';

export interface IsolateFigures {
  /** Used JS heap and ArrayBuffer backing stores (CDP Runtime.getHeapUsage) of each isolate kind. */
  pageBacking: number;
  serviceWorkerHeap: number;
  serviceWorkerBacking: number;
  workersBacking: number;
}

/**
 * The service worker and the page's dedicated workers (transfer workers) probed over the page's
 * CDP session (Target.attachToTarget without flatten, messages through Target.sendMessageToTarget):
 * what each isolate holds in ArrayBuffers, which the renderer's RSS counts and its JS heap does not.
 */
export class IsolateProbe {
  private nextId = 1;
  private readonly pending = new Map<number, (result: Record<string, number> | null) => void>();
  private readonly sessions = new Map<string, { sessionId: string; type: string }>();

  constructor(private readonly cdp: CDPSession) {
    cdp.on('Target.receivedMessageFromTarget', (event: { message: string }) => {
      const message = JSON.parse(event.message) as { id?: number; result?: Record<string, number> };
      if (message.id === undefined) return;
      this.pending.get(message.id)?.(message.result ?? null);
      this.pending.delete(message.id);
    });
    cdp.on('Target.detachedFromTarget', (event: { sessionId: string }) => {
      for (const [targetId, s] of this.sessions) if (s.sessionId === event.sessionId) this.sessions.delete(targetId);
    });
  }

  private send(sessionId: string, method: string): Promise<Record<string, number> | null> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      setTimeout(() => {
        this.pending.delete(id);
        resolve(null);
      }, 1_000);
      this.cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) }).catch(() => resolve(null));
    });
  }

  private async attachNew(): Promise<void> {
    const { targetInfos } = (await this.cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string }[] };
    for (const target of targetInfos) {
      if ((target.type !== 'service_worker' && target.type !== 'worker') || this.sessions.has(target.targetId)) continue;
      try {
        const { sessionId } = (await this.cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
        this.sessions.set(target.targetId, { sessionId, type: target.type });
      } catch {
        /* gone */
      }
    }
  }

  /** A full collection in the page and in every worker probed (garbage is not memory held). */
  async collectGarbage(): Promise<void> {
    await this.attachNew().catch(() => undefined);
    await Promise.all([this.cdp.send('HeapProfiler.collectGarbage').catch(() => undefined), ...[...this.sessions.values()].map(({ sessionId }) => this.send(sessionId, 'HeapProfiler.collectGarbage'))]);
  }

  async figures(): Promise<IsolateFigures> {
    await this.attachNew().catch(() => undefined);
    const page = (await this.cdp.send('Runtime.getHeapUsage').catch(() => null)) as Record<string, number> | null;
    const figures: IsolateFigures = { pageBacking: page?.backingStorageSize ?? 0, serviceWorkerHeap: 0, serviceWorkerBacking: 0, workersBacking: 0 };
    await Promise.all(
      [...this.sessions.values()].map(async ({ sessionId, type }) => {
        const usage = await this.send(sessionId, 'Runtime.getHeapUsage');
        if (!usage) return;
        if (type === 'service_worker') {
          figures.serviceWorkerHeap += usage.usedSize ?? 0;
          figures.serviceWorkerBacking += usage.backingStorageSize ?? 0;
        } else figures.workersBacking += usage.backingStorageSize ?? 0;
      }),
    );
    return figures;
  }
}

/** Zero of every figure: the start of a peak. */
export function noIsolateFigures(): IsolateFigures {
  return { pageBacking: 0, serviceWorkerHeap: 0, serviceWorkerBacking: 0, workersBacking: 0 };
}

/** 'page 12 MiB, service worker 40 MiB (its JS heap 3 MiB), transfer workers 0 MiB' */
export function describeIsolates(figures: IsolateFigures, mib: (bytes: number) => string): string {
  return `page ${mib(figures.pageBacking)}, service worker ${mib(figures.serviceWorkerBacking)} (its JS heap ${mib(figures.serviceWorkerHeap)}), transfer workers ${mib(figures.workersBacking)}`;
}
