/**
 * 'Restore a vault from the network' inside the crypto worker (issue 19, docs/SYNC_SPEC.md R96):
 * the reader (src/network/restoreReader.ts) needs the wallet's private X25519 key to open the ring
 * the log handed to this member, so it runs here, over the history items' bytes the app fetched.
 * What goes back to the UI is what the import and the uploads need and what the page shows: the
 * judged operations as signed (public already, sealed fields still sealed), the versions' signed
 * chunk hashes and the opened names. The ring and the keys never leave the worker.
 */
import type { WalletKeys } from '../../src/crypto/keys';
import { describeHistoryEnd, readVaultHistory, RestoreError, type HistoryItem, type VaultItemSource } from '../../src/network/restoreReader';
import type { FileVersion } from '../../src/protocol/vaults';
import type { RestoreHistoryItem, RestorePlan } from './CryptoApi';

/** A source holding only history items already read (the app fetched them through its server). */
function heldSource(items: RestoreHistoryItem[], label: string): VaultItemSource {
  return {
    label,
    async *historyItems(): AsyncGenerator<HistoryItem> {
      for (const item of items) yield { id: item.id, owner: item.owner, height: item.height, seqFrom: item.seqFrom, seqTo: item.seqTo, read: async () => item.data };
    },
    // eslint-disable-next-line require-yield
    async *fileItems() {
      // Bytes are read by the app, one chunk at a time, and checked against the plan's hashes.
      return;
    },
  };
}

/**
 * Judges `items` as R86 says and answers the plan of the restore; throws Error(`RESTORE:{code}:{message}`)
 * for a RestoreError, since a worker's errors cross Comlink as plain Errors.
 */
export async function planRestore(keys: WalletKeys, vaultId: string, items: RestoreHistoryItem[], label: string): Promise<RestorePlan> {
  try {
    const restored = await readVaultHistory(heldSource(items, label), vaultId, keys);
    const names = new Map<string, string>();
    const versions: Omit<RestorePlan['versions'][number], 'fileName'>[] = [];
    let memos = 0;
    for (const { entry, fields } of restored.ops) {
      const body = entry.op.body;
      if (body.type === 'memo.create') memos += 1;
      let version: FileVersion | null = null;
      if (body.type === 'file.create') {
        names.set(entry.op.objectId, fields.name ?? entry.op.objectId);
        version = body.version;
      } else if (body.type === 'file.addVersion') {
        version = body.version;
      }
      if (!version) continue;
      versions.push({
        fileId: entry.op.objectId,
        versionId: version.versionId,
        blobId: version.blobId,
        size: version.size,
        storedSize: version.storedSize,
        chunkSize: version.chunkSize,
        chunkCount: version.chunkCount,
        chunkHashes: version.chunkHashes,
        isEncrypted: version.fileKey !== undefined,
      });
    }
    // Names as they are at the head (a rename after the upload is what the member sees).
    for (const node of restored.state.nodes.values()) if (names.has(node.id)) names.set(node.id, node.name);
    const nodes = [...restored.state.nodes.values()];
    return {
      vaultId,
      headSeq: restored.headSeq,
      end: restored.end,
      endNotice: describeHistoryEnd(restored.end, label),
      name: restored.state.vault.name,
      isPublic: restored.log.isPublic,
      ops: restored.ops.map(({ entry }) => ({ seq: entry.seq, receivedAt: entry.receivedAt, op: entry.op })),
      versions: versions.map((v) => ({ ...v, fileName: names.get(v.fileId) ?? v.fileId })),
      counts: {
        folders: nodes.filter((n) => n.kind === 'folder').length,
        files: nodes.filter((n) => n.kind === 'file').length,
        memos,
      },
    };
  } catch (error) {
    if (error instanceof RestoreError) throw new Error(`RESTORE:${error.code}:${error.message}`);
    throw error;
  }
}
