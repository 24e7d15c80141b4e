/**
 * `.cairn/chat.json` (docs/SYNC_SPEC.md R88): the vault's chat as its members see it, oldest
 * first, reactions as the last operation of each author and emoji left them (R23). Authors are
 * their public signing keys: the network holds no names or e-mails.
 */
import type { VaultState } from '../src/storage/vaultProjection';

export function chatJson(state: VaultState): string {
  const memos = [...state.memos.values()]
    .filter((memo) => memo.text !== null && memo.rejection === null)
    .sort((a, b) => a.order - b.order)
    .map((memo) => {
      const reactions: Record<string, string[]> = {};
      for (const reaction of memo.reactions) if (reaction.isAdded) (reactions[reaction.emoji] ??= []).push(reaction.authorKey);
      return { id: memo.memoId, author: memo.authorKey, createdAt: memo.createdAt, message: memo.text, reactions };
    });
  return `${JSON.stringify({ format: 'cairn-chat', version: 1, memos }, null, 2)}\n`;
}
