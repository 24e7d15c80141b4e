/**
 * Lets go of an ArrayBuffer's bytes now instead of at its thread's next garbage collection.
 *
 * Each chunk of a transfer leaves buffers of megabytes behind in the thread that handled it (the
 * bytes read from disk or the network, the sealed or opened copy), and Chromium frees a buffer's
 * bytes only when that thread next collects its garbage: in a worker or the service worker, with
 * a heap of a few MiB, that can be after a hundred MiB of them (docs/decisions.md, issue 25).
 * Detaching a buffer frees its bytes at once: `transfer(0)` where the platform has it (Chromium
 * 114 and later), else a structured clone that moves them into a copy nothing holds.
 *
 * Only for a buffer the caller owns and is done with: every view of it reads as empty afterwards.
 */
export function releaseBuffer(buffer: ArrayBufferLike): void {
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength === 0) return;
  const detachable = buffer as ArrayBuffer & { transfer?: (newLength?: number) => ArrayBuffer };
  if (typeof detachable.transfer === 'function') detachable.transfer(0);
  else structuredClone(buffer, { transfer: [buffer] });
}
