/**
 * Cryptographically secure random bytes from WebCrypto (`globalThis.crypto`), which the browser,
 * workers and Node 20 all provide. Never Math.random.
 */
export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  // getRandomValues fills at most 65,536 bytes per call.
  for (let offset = 0; offset < length; offset += 65_536) {
    globalThis.crypto.getRandomValues(out.subarray(offset, Math.min(length, offset + 65_536)));
  }
  return out;
}
