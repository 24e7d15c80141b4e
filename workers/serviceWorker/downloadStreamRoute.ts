/**
 * The download-stream route (protocol: downloadStreamProtocol.ts). A page registers a download
 * (name, size, type and a MessagePort); the browser's request for its URL is answered with a
 * Response streamed, which the browser saves to disk as it arrives: a single file's from its
 * chunks, fetched, checked and opened here (chunkSourceStream.ts); a zip's from the port, fed by
 * the page. No plaintext is written to any cache.
 */
import { registerRoute } from 'workbox-routing';
import { downloadHeaders } from './downloadHeaders';
import { DOWNLOAD_STREAM_PATH, downloadIdOfPath, PageToServiceWorker, type RegisterDownload, type ServiceWorkerPortMessage } from './downloadStreamProtocol';
import { readableFromChunks } from './chunkSourceStream';
import { readableFromPort } from './portStreams';

/**
 * A registration the browser never requests is dropped after this long (ms). The page requests it
 * at once; the wait only covers a slow frame under load.
 */
const REGISTRATION_TTL_MS = 60_000;

interface PendingDownload {
  meta: RegisterDownload;
  port: MessagePort;
  timer: ReturnType<typeof setTimeout>;
}

export function registerDownloadStreamRoute(scope: ServiceWorkerGlobalScope): void {
  // In memory only: a service worker restarted between registration and request answers 404 and
  // the page, never told `started`, fails the download with a clear message.
  const pending = new Map<string, PendingDownload>();

  scope.addEventListener('message', (event: ExtendableMessageEvent) => {
    const message = PageToServiceWorker.safeParse(event.data);
    // A keep-alive needs no handling: receiving the event is what keeps the worker running.
    if (!message.success || message.data.type !== 'cairn-download-register') return;
    const port = event.ports[0];
    if (!port) return;
    const { id } = message.data;
    const previous = pending.get(id);
    if (previous) {
      clearTimeout(previous.timer);
      previous.port.close();
    }
    const timer = setTimeout(() => {
      pending.delete(id);
      port.close();
    }, REGISTRATION_TTL_MS);
    pending.set(id, { meta: message.data, port, timer });
    port.postMessage({ type: 'registered' } satisfies ServiceWorkerPortMessage);
  });

  registerRoute(
    ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith(DOWNLOAD_STREAM_PATH),
    async ({ url }) => {
      const id = downloadIdOfPath(url.pathname);
      const download = id ? pending.get(id) : undefined;
      if (!id || !download) {
        return new Response('This download is no longer available. Start it again from Cairn.', {
          status: 404,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        });
      }
      // One request per registration: a second one (a retry, another tab) cannot read the bytes.
      pending.delete(id);
      clearTimeout(download.timer);
      const body = download.meta.source ? readableFromChunks(download.meta.source, download.port, (input, init) => scope.fetch(input, init)) : readableFromPort(download.port);
      return new Response(body, { status: 200, headers: downloadHeaders(download.meta) });
    },
  );
}
