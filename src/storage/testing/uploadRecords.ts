/** Upload records for store tests: a new 100-byte text file at a vault's root, one chunk, none sent. */
import type { UploadRecord } from '../vaultRecords';

export function uploadRecordOf(accountId: string, uploadId: string, change: Partial<UploadRecord> = {}): UploadRecord {
  return {
    accountId,
    uploadId,
    vaultId: 'v',
    fileId: `f-${uploadId}`,
    isNewFile: true,
    parentId: null,
    name: `${uploadId}.txt`,
    versionId: `ver-${uploadId}`,
    blobId: `b-${uploadId}`,
    sealedFileKey: null,
    fileType: 'text/plain',
    size: 100,
    lastModified: 0,
    chunkCount: 1,
    chunkHashes: [null],
    sentBytes: 0,
    state: 'uploading',
    error: null,
    createdAt: 0,
    batchId: 'batch',
    ...change,
  };
}
