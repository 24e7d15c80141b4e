import { describe, expect, it } from 'vitest';
import { categoryOf, categoryUsage } from './categoryUsage';

describe('per-category usage (spec 000 section 2, Storage page)', () => {
  it('sorts MIME types into documents, photos, video, audio and other', () => {
    expect(categoryOf('application/pdf')).toBe('documents');
    expect(categoryOf('text/markdown; charset=utf-8')).toBe('documents');
    expect(categoryOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('documents');
    expect(categoryOf('IMAGE/JPEG')).toBe('photos');
    expect(categoryOf('video/mp4')).toBe('video');
    expect(categoryOf('audio/mpeg')).toBe('audio');
    expect(categoryOf('application/zip')).toBe('other');
    expect(categoryOf('')).toBe('other');
  });

  it("counts every version in the user's own vaults, split into permanent and cloud; others' vaults do not count", () => {
    const vaults = [
      { vaultId: 'perm', isCloud: false, role: 'OWNER' as const },
      { vaultId: 'cloud', isCloud: true, role: 'OWNER' as const },
      { vaultId: 'theirs', isCloud: false, role: 'CONTRIBUTOR' as const },
    ];
    const versions = [
      { vaultId: 'perm', mimeTypeText: 'image/png', storedSize: 100 },
      { vaultId: 'perm', mimeTypeText: 'image/png', storedSize: 50 },
      { vaultId: 'perm', mimeTypeText: 'application/pdf', storedSize: 7 },
      { vaultId: 'cloud', mimeTypeText: 'audio/ogg', storedSize: 30 },
      { vaultId: 'theirs', mimeTypeText: 'video/mp4', storedSize: 1000 },
    ];
    expect(categoryUsage(vaults, versions)).toEqual({
      permanent: { documents: 7, photos: 150, video: 0, audio: 0, other: 0 },
      cloud: { documents: 0, photos: 0, video: 0, audio: 30, other: 0 },
    });
    // The vaults' own records (operation logs, history runs on the network) are Other: the bars add up to the used figure.
    expect(categoryUsage(vaults, versions, { cloud: 12, permanent: 40 })).toEqual({
      permanent: { documents: 7, photos: 150, video: 0, audio: 0, other: 40 },
      cloud: { documents: 0, photos: 0, video: 0, audio: 30, other: 12 },
    });
  });
});
