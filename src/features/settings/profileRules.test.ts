import { describe, expect, it } from 'vitest';
import { canSaveProfile } from './profileRules';

describe('profile save rule', () => {
  it('needs a non-empty changed name or a changed photo', () => {
    expect(canSaveProfile({ name: 'Ada', savedName: null, isPhotoChanged: false })).toBe(true);
    expect(canSaveProfile({ name: 'Ada', savedName: 'Ada', isPhotoChanged: false })).toBe(false);
    expect(canSaveProfile({ name: ' Ada ', savedName: 'Ada', isPhotoChanged: false })).toBe(false);
    expect(canSaveProfile({ name: '   ', savedName: 'Ada', isPhotoChanged: false })).toBe(false);
    expect(canSaveProfile({ name: '', savedName: 'Ada', isPhotoChanged: true })).toBe(true);
  });
});
