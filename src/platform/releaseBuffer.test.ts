import { describe, expect, it } from 'vitest';
import { releaseBuffer } from './releaseBuffer';

describe('releaseBuffer', () => {
  it('detaches the buffer, so its bytes are no longer held by it', () => {
    const bytes = new Uint8Array(1024).fill(7);
    releaseBuffer(bytes.buffer);
    expect(bytes.buffer.byteLength).toBe(0);
    expect(bytes.length).toBe(0);
  });

  it('leaves an empty buffer and a shared one alone', () => {
    const empty = new ArrayBuffer(0);
    expect(() => releaseBuffer(empty)).not.toThrow();
    const shared = new SharedArrayBuffer(16);
    releaseBuffer(shared);
    expect(shared.byteLength).toBe(16);
  });
});
