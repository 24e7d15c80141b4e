import { describe, expect, it } from 'vitest';
import { publicFileLink, publicVaultLink } from './shareLinks';

describe('public share links', () => {
  it('links a vault to its public Files tab and a file to its folder with the file open', () => {
    expect(publicVaultLink('V1', 'https://cairn.example')).toBe('https://cairn.example/public/vaults/active/V1/assets');
    expect(publicFileLink('V1', { id: 'F9', parentId: null }, 'https://cairn.example')).toBe('https://cairn.example/public/vaults/active/V1/assets?file=F9');
    expect(publicFileLink('V1', { id: 'F9', parentId: 'D2' }, 'https://cairn.example')).toBe('https://cairn.example/public/vaults/active/V1/assets/folders/D2?file=F9');
  });
});
