/**
 * The download stream between a page and the service worker (docs/decisions.md): the page
 * registers a download with `RegisterDownload` sent to its controller together with one end of a
 * MessageChannel, then navigates a hidden iframe to `downloadStreamUrl(id)`. The service worker
 * answers that navigation with a Response whose body is fed from the port, and the browser saves
 * it to disk as it arrives.
 *
 * Two kinds of download. A single file's registration carries its `source`: the service worker
 * fetches, checks and opens the chunks itself and only tells the page how far it got (`progress`,
 * `done`, `failed`); plaintext never crosses a port, which copied every byte (issue 25). A zip's
 * bytes are made in the page: only plaintext the page has already verified and decrypted crosses
 * the port, by credit: the service worker sends `pull` when its body queue has room, and the page
 * sends exactly one `chunk` per `pull`.
 *
 * Used by both sides, so it touches neither DOM nor service-worker globals.
 */
import { z } from 'zod';

/** Same-origin path the service worker answers; the id is the only thing in it (never a name). */
export const DOWNLOAD_STREAM_PATH = '/download-stream/';

export function downloadStreamUrl(id: string): string {
  return `${DOWNLOAD_STREAM_PATH}${encodeURIComponent(id)}`;
}

const DownloadId = z.string().regex(/^[A-Za-z0-9-]{8,64}$/);

/** The download id in a download-stream path, or null for any other path. */
export function downloadIdOfPath(pathname: string): string | null {
  if (!pathname.startsWith(DOWNLOAD_STREAM_PATH)) return null;
  const id = DownloadId.safeParse(pathname.slice(DOWNLOAD_STREAM_PATH.length));
  return id.success ? id.data : null;
}

/** Chunks a download's source may list (a file of 2^20 chunks is terabytes). */
const MAX_SOURCE_CHUNKS = 1 << 20;

/**
 * Where the service worker fetches a single file's chunks itself (docs/decisions.md, issue 25):
 * the version's chunk header, its file key (null for a public vault), and each chunk's same-origin
 * API path with the SHA-256 its uploader signed. The service worker checks and opens every chunk
 * exactly as a transfer worker does (workers/transfer/createTransferApi.ts).
 */
export const ChunkSource = z
  .strictObject({
    header: z.strictObject({
      size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
      chunkSize: z.number().int().positive(),
      chunkCount: z.number().int().positive().max(MAX_SOURCE_CHUNKS),
    }),
    rawKey: z.instanceof(ArrayBuffer).refine((key) => key.byteLength === 32, 'a file key is 32 bytes').nullable(),
    chunks: z
      .array(
        z.strictObject({
          url: z.string().max(2048).regex(/^\/api\/vaults\/[^?#]+\/chunks\/\d+$/),
          sha256: z.string().regex(/^[0-9a-f]{64}$/),
        }),
      )
      .min(1)
      .max(MAX_SOURCE_CHUNKS),
    /** Cache Storage to read the sealed chunks from and keep them in (SYNC_SPEC R15), when the file is kept. */
    cacheName: z.string().min(1).max(200).optional(),
  })
  .refine((source) => source.chunks.length === source.header.chunkCount, 'one chunk per header chunk');
export type ChunkSource = z.infer<typeof ChunkSource>;

/** Page to service worker (`controller.postMessage`), with the port transferred. */
export const RegisterDownload = z
  .strictObject({
    type: z.literal('cairn-download-register'),
    id: DownloadId,
    fileName: z.string().min(1).max(1024),
    /** Plaintext bytes: the Content-Length, and exactly what the page (or the source) gives. */
    size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    mimeType: z.string().max(255),
    /** When given, the service worker fetches the bytes itself and the page only follows. */
    source: ChunkSource.optional(),
  })
  .refine((message) => !message.source || message.source.header.size === message.size, 'the source is of the announced size');
export type RegisterDownload = z.infer<typeof RegisterDownload>;

/**
 * Page to service worker while a download runs. A message event keeps an idle service worker
 * alive; messages on a MessagePort do not, and a service worker stopped mid-download would fail it.
 */
export const KeepAlive = z.strictObject({ type: z.literal('cairn-download-keepalive') });
export type KeepAlive = z.infer<typeof KeepAlive>;

/** Every message of this protocol a page sends to its controller. */
export const PageToServiceWorker = z.discriminatedUnion('type', [RegisterDownload, KeepAlive]);

/** Service worker to page, on the download's port. */
export const ServiceWorkerPortMessage = z.discriminatedUnion('type', [
  /** The registration was stored: the page may navigate to the stream's URL. */
  z.strictObject({ type: z.literal('registered') }),
  /** The browser requested the URL and got the Response: the download has begun. */
  z.strictObject({ type: z.literal('started') }),
  /** Room for one more chunk. */
  z.strictObject({ type: z.literal('pull') }),
  /** The browser cancelled the download (the user, or the tab going away). */
  z.strictObject({ type: z.literal('cancel') }),
  /** A download with a source: plaintext bytes handed to the browser so far. */
  z.strictObject({ type: z.literal('progress'), received: z.number().int().nonnegative() }),
  /** A download with a source: every byte was handed to the browser. */
  z.strictObject({ type: z.literal('done') }),
  /** A download with a source failed (the browser marks it failed); `message` as a transfer worker's error says. */
  z.strictObject({ type: z.literal('failed'), message: z.string().max(1000) }),
]);
export type ServiceWorkerPortMessage = z.infer<typeof ServiceWorkerPortMessage>;

/** Page to service worker, on the download's port. */
export const PagePortMessage = z.discriminatedUnion('type', [
  /** One piece of plaintext, transferred (not copied). */
  z.strictObject({ type: z.literal('chunk'), bytes: z.instanceof(ArrayBuffer) }),
  /** Every byte was sent: the browser completes the download. */
  z.strictObject({ type: z.literal('end') }),
  /** The download must fail (a tampered chunk, a cancel in the app): the browser marks it failed. */
  z.strictObject({ type: z.literal('abort'), message: z.string().max(1000) }),
]);
export type PagePortMessage = z.infer<typeof PagePortMessage>;

/** The error a page-side stream fails with once the browser cancelled the download. */
export const STREAM_CANCELLED = 'STREAM_CANCELLED';

/** Whether `error` is the browser's cancel of the download (STREAM_CANCELLED), not a failure. */
export function isStreamCancelled(error: unknown): boolean {
  return error instanceof Error && error.message === STREAM_CANCELLED;
}
