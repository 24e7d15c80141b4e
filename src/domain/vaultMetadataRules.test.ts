import { describe, expect, it } from 'vitest';
import { canSaveMetadata, type MetadataDraft } from './vaultMetadataRules';

const base: MetadataDraft = { isOwner: true, isSaving: false, originalDescription: 'old', description: 'old', originalTags: ['a'], tags: ['a'] };

describe('Description and tags Save (spec 000 section 5)', () => {
  it('is disabled while nothing changed', () => {
    expect(canSaveMetadata(base)).toBe(false);
  });
  it('is enabled for a changed description of 1 to 300 characters', () => {
    expect(canSaveMetadata({ ...base, description: 'new' })).toBe(true);
    expect(canSaveMetadata({ ...base, description: 'x'.repeat(300) })).toBe(true);
    expect(canSaveMetadata({ ...base, description: 'x'.repeat(301) })).toBe(false);
    expect(canSaveMetadata({ ...base, description: '' })).toBe(false);
  });
  it('is enabled when the tags changed, whatever the description', () => {
    expect(canSaveMetadata({ ...base, tags: ['a', 'b'] })).toBe(true);
    expect(canSaveMetadata({ ...base, tags: [] })).toBe(true);
    expect(canSaveMetadata({ ...base, tags: ['a', 'b'], description: '' })).toBe(true);
  });
  it('is disabled for non-owners and while saving', () => {
    expect(canSaveMetadata({ ...base, description: 'new', isOwner: false })).toBe(false);
    expect(canSaveMetadata({ ...base, description: 'new', isSaving: true })).toBe(false);
  });
});
