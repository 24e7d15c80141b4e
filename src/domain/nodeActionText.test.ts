import { describe, expect, it } from 'vitest';
import { nodeActionText, undoneText, UNDO_OF } from './nodeActionText';

const file = { kind: 'file', name: 'report.pdf', mimeType: 'application/pdf' } as const;
const folder = { kind: 'folder', name: 'Maps', mimeType: '' } as const;
const note = { kind: 'file', name: 'Plan.md', mimeType: 'text/markdown' } as const;

describe('nodeActionText: the snackbar after a file, folder or note action', () => {
  it('names one item by its kind (spec 000: fileMove / folderMove)', () => {
    expect(nodeActionText('move', [file])).toBe('File moved');
    expect(nodeActionText('move', [folder])).toBe('Folder moved');
    expect(nodeActionText('rename', [note])).toBe('Note renamed');
    expect(nodeActionText('hide', [folder])).toBe('Folder hidden');
    expect(nodeActionText('restore', [file])).toBe('File restored');
    expect(nodeActionText('clear', [file])).toBe('File cleared');
  });

  it('counts a batch', () => {
    expect(nodeActionText('delete', [file, folder, note])).toBe('3 items deleted');
    expect(nodeActionText('move', [file, folder])).toBe('2 items moved');
  });

  it('offers Undo for every action but a delete or clear', () => {
    expect(UNDO_OF).toEqual({ move: 'move', hide: 'restore', restore: 'hide', rename: 'rename', delete: null, clear: null });
  });

  it('says what Undo did', () => {
    expect(undoneText('move', [file])).toBe('File moved back');
    expect(undoneText('move', [file, note])).toBe('2 items moved back');
    expect(undoneText('rename', [note])).toBe('Name restored');
    expect(undoneText('hide', [folder])).toBe('Folder restored');
    expect(undoneText('restore', [file, folder])).toBe('2 items hidden');
  });
});
