import { describe, expect, it } from 'vitest';
import { linkTargetView } from './linkTargetRules';

describe('what a saved link to a file shows', () => {
  const file = { kind: 'file', vaultId: 'v1', status: 'ACTIVE' } as const;
  it('R70: a file the device does not hold yet is pending (fetching), not missing', () => {
    expect(linkTargetView(undefined, 'v1')).toBe('pending');
  });
  it('R71: a file deleted for good says so instead of offering its preview and Download', () => {
    expect(linkTargetView({ ...file, status: 'DELETED' }, 'v1')).toBe('deleted');
  });
  it('a live or hidden file opens; a folder or another vault\'s file goes to the files', () => {
    expect(linkTargetView(file, 'v1')).toBe('file');
    expect(linkTargetView({ ...file, status: 'REVOKED' }, 'v1')).toBe('file');
    expect(linkTargetView({ ...file, kind: 'folder' }, 'v1')).toBe('elsewhere');
    expect(linkTargetView(file, 'v2')).toBe('elsewhere');
  });
});
