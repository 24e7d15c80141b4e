/**
 * Import by network transaction id (spec 000 sections 2, 5 and 8; docs/SYNC_SPEC.md R42-R43):
 * the item's bytes come through the server's GET /arweave/tx/{txId} (the gateway is the server's
 * configuration, and the session keeps the server from being an open proxy), with its
 * Content-Type and File-Name tags. The result is a File that the screens hand to the normal
 * upload path, so an import is stored, relayed and listed like any upload, and nothing is added
 * when the fetch fails or is cancelled.
 */
import { decodeFileNameHeader, importedFileName, importedMimeType, isImportableTxId } from '../domain/importTxRules';
import { ApiError, type ErrorCode } from '../protocol/errors';
import { ARWEAVE_CONTENT_TYPE_HEADER, ARWEAVE_FILE_NAME_HEADER } from '../protocol/arweave';
import { errorFromResponse, type FetchLike } from '../platform/apiClient';
import { PROTOCOL_VERSION } from '../protocol/version';
import { API_BASE } from './uploadQueue';

/**
 * Why an import stopped. `cancelled`: the user cancelled. `notFound`: the network does not know
 * the id. `offline`: no answer from the server. `failed`: any other refusal (gateway down, a bad
 * id, a session that ended).
 */
export type ImportFailure = 'cancelled' | 'notFound' | 'offline' | 'failed';

export class ImportError extends Error {
  readonly reason: ImportFailure;
  readonly code: ErrorCode | null;
  constructor(reason: ImportFailure, message: string, options?: { cause?: unknown; code?: ErrorCode }) {
    super(message, options);
    this.name = 'ImportError';
    this.reason = reason;
    this.code = options?.code ?? null;
  }
}

/** Bytes read so far, and the item's size when the gateway said it (else null). */
export type ImportProgress = (loaded: number, total: number | null) => void;

export interface FetchTransactionOptions {
  signal?: AbortSignal;
  onProgress?: ImportProgress;
  /** Defaults to the global fetch; tests route it to the real server. */
  fetch?: FetchLike;
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof DOMException && error.name === 'AbortError');
}

/**
 * Fetches one network item as a File named by its File-Name tag (else the id) and typed by its
 * Content-Type tag, which the server sends as `x-cairn-content-type` (the response's own type is
 * always application/octet-stream, R54). Rejects with ImportError; an id that is not 43 base64url characters is refused
 * before any request.
 */
export async function fetchTransactionFile(txId: string, options: FetchTransactionOptions = {}): Promise<File> {
  const { signal, onProgress } = options;
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  if (!isImportableTxId(txId)) throw new ImportError('failed', 'Not a network transaction id');
  if (signal?.aborted) throw new ImportError('cancelled', 'Import cancelled');

  let response: Response;
  try {
    response = await doFetch(`${API_BASE}/arweave/tx/${txId}`, {
      method: 'GET',
      headers: { 'x-cairn-protocol': String(PROTOCOL_VERSION) },
      credentials: 'same-origin',
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (isAbort(error, signal)) throw new ImportError('cancelled', 'Import cancelled', { cause: error });
    throw new ImportError('offline', 'The server could not be reached', { cause: error });
  }

  if (!response.ok) {
    const error: ApiError = errorFromResponse(response.status, await response.text().catch(() => ''));
    throw new ImportError(error.code === 'NOT_FOUND' ? 'notFound' : 'failed', error.message, { cause: error, code: error.code });
  }

  const lengthHeader = response.headers.get('content-length');
  const total = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let loaded = 0;
  onProgress?.(0, total);
  try {
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value as Uint8Array<ArrayBuffer>);
        loaded += value.byteLength;
        onProgress?.(loaded, total);
      }
    }
  } catch (error) {
    if (isAbort(error, signal)) throw new ImportError('cancelled', 'Import cancelled', { cause: error });
    throw new ImportError('offline', 'The transfer was interrupted', { cause: error });
  }
  if (signal?.aborted) throw new ImportError('cancelled', 'Import cancelled');
  // A body cut short (the gateway or the connection dropped) must not become a truncated file.
  if (total !== null && loaded !== total) throw new ImportError('failed', `Received ${loaded} of ${total} bytes`);

  const name = importedFileName(decodeFileNameHeader(response.headers.get(ARWEAVE_FILE_NAME_HEADER)), txId);
  return new File(parts, name, { type: importedMimeType(response.headers.get(ARWEAVE_CONTENT_TYPE_HEADER)), lastModified: Date.now() });
}
