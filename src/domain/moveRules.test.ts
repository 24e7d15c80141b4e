import { describe, expect, it } from 'vitest';
import { canMoveInto, draggedIds } from './moveRules';

describe('drag and move targets (spec 000 sections 2, 5)', () => {
  it('drags the whole selection when the dragged row is selected, else that row alone', () => {
    expect(draggedIds('a', new Set(['a', 'b'])).sort()).toEqual(['a', 'b']);
    expect(draggedIds('c', new Set(['a', 'b']))).toEqual(['c']);
  });
  it('refuses a folder dropped onto itself', () => {
    expect(canMoveInto([{ id: 'f', parentId: null }], { folderId: 'f', pathIds: ['f'] })).toBe(false);
  });
  it('refuses a destination inside a moved folder', () => {
    const moving = [{ id: 'f', parentId: null }, { id: 'x', parentId: null }];
    expect(canMoveInto(moving, { folderId: 'g', pathIds: ['f', 'g'] })).toBe(false);
  });
  it('refuses a drop where every item already is, accepts a sibling folder or an ancestor', () => {
    expect(canMoveInto([{ id: 'a', parentId: 'p' }], { folderId: 'p', pathIds: ['p'] })).toBe(false);
    expect(canMoveInto([{ id: 'a', parentId: 'p' }], { folderId: 'q', pathIds: ['p', 'q'] })).toBe(true);
    expect(canMoveInto([{ id: 'a', parentId: 'p' }], { folderId: null, pathIds: [] })).toBe(true);
  });
  it('refuses an empty drag', () => {
    expect(canMoveInto([], { folderId: 'q', pathIds: ['q'] })).toBe(false);
  });
});
