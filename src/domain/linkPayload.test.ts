import { describe, expect, it } from 'vitest';
import { decodeLinkPayload, encodeLinkPayload } from './linkPayload';

describe('link payload (uid of e-mailed links)', () => {
  it('reads a verification uid', () => {
    const uid = Buffer.from(JSON.stringify({ email: 'ada@example.com' })).toString('base64url');
    expect(decodeLinkPayload(uid)).toEqual({ email: 'ada@example.com' });
  });

  it('reads a recovery uid with the address, including non-ASCII e-mails', () => {
    const payload = { email: 'zoë@example.com', address: '654KyaguCVnaojCIaY-ZHqj7KOByyUwCMWi4mJKOhyw' };
    const uid = Buffer.from(JSON.stringify(payload)).toString('base64url');
    expect(decodeLinkPayload(uid)).toEqual(payload);
    expect(encodeLinkPayload(payload)).toBe(uid);
  });

  it('rejects anything else', () => {
    expect(decodeLinkPayload(undefined)).toBeNull();
    expect(decodeLinkPayload('')).toBeNull();
    expect(decodeLinkPayload('not base64url!')).toBeNull();
    expect(decodeLinkPayload(Buffer.from('plain text').toString('base64url'))).toBeNull();
    expect(decodeLinkPayload(Buffer.from('{"email":3}').toString('base64url'))).toBeNull();
    expect(decodeLinkPayload(Buffer.from('"a@b.co"').toString('base64url'))).toBeNull();
  });
});
