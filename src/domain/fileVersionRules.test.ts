import { describe, expect, it } from 'vitest';
import { canAddVersion } from './fileVersionRules';

const file = (name: string, mimeType = 'application/octet-stream') => ({ kind: 'file' as const, name, mimeType, status: 'ACTIVE' });

describe('canAddVersion (spec 000 section 6)', () => {
  it('offers a new version for ordinary files', () => {
    expect(canAddVersion(file('report.pdf', 'application/pdf'))).toBe(true);
    expect(canAddVersion(file('data.json', 'application/json'))).toBe(true);
  });

  it('blocks manifest.json, whatever its type', () => {
    expect(canAddVersion(file('manifest.json', 'application/x.arweave-manifest+json'))).toBe(false);
    expect(canAddVersion(file('manifest.json', 'application/json'))).toBe(false);
  });

  it('is not shown for notes, folders or hidden files', () => {
    expect(canAddVersion(file('Plan.md', 'text/markdown'))).toBe(false);
    expect(canAddVersion({ ...file('photos'), kind: 'folder' })).toBe(false);
    expect(canAddVersion({ ...file('old.pdf'), status: 'REVOKED' })).toBe(false);
  });
});
