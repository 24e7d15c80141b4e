import { useEffect, useState } from 'react';
import { DownloadError } from '../../../sync/vaultActions';
import { getDecryptedBlob, peekDecryptedBlob, stopProgress } from './decryptedBlobs';

export interface DecryptedBlobState {
  blob: Blob | null;
  /** 0 to 100 while decrypting. */
  progress: number;
  error: 'tampered' | 'offline' | 'failed' | null;
  /** Tries again after an error. */
  retry: () => void;
}

/**
 * The decrypted Blob of a version, decrypted lazily: nothing happens while `isEnabled` is false
 * (a thumbnail off screen, a file too large to preview).
 */
export function useDecryptedBlob(
  vaultId: string,
  fileId: string,
  versionId: string | null,
  options: { isEnabled?: boolean; isUrgent?: boolean } = {},
): DecryptedBlobState {
  const { isEnabled = true, isUrgent = false } = options;
  const cached = versionId ? peekDecryptedBlob(fileId, versionId) : undefined;
  const [state, setState] = useState<Omit<DecryptedBlobState, 'retry'> & { key: string }>({ key: '', blob: null, progress: 0, error: null });
  const [attempt, setAttempt] = useState(0);
  const key = `${fileId}/${versionId ?? ''}`;
  const retry = () => setAttempt((n) => n + 1);

  useEffect(() => {
    if (!versionId || !isEnabled || peekDecryptedBlob(fileId, versionId)) return;
    let isCurrent = true;
    const onProgress = (received: number, total: number) => {
      if (isCurrent) setState((s) => ({ ...s, key, progress: total > 0 ? Math.round((received / total) * 100) : 0 }));
    };
    setState({ key, blob: null, progress: 0, error: null });
    getDecryptedBlob(vaultId, fileId, versionId, { onProgress, isUrgent }).then(
      (blob) => isCurrent && setState({ key, blob, progress: 100, error: null }),
      (error: unknown) => {
        if (!isCurrent) return;
        console.warn('preview decrypt failed', error);
        setState({ key, blob: null, progress: 0, error: errorKindOf(error) });
      },
    );
    return () => {
      isCurrent = false;
      stopProgress(fileId, versionId, onProgress);
    };
  }, [vaultId, fileId, versionId, isEnabled, isUrgent, key, attempt]);

  if (cached) return { blob: cached, progress: 100, error: null, retry };
  // A state left from the previous version must not show for this one.
  if (state.key !== key) return { blob: null, progress: 0, error: null, retry };
  return { ...state, retry };
}

function errorKindOf(error: unknown): 'tampered' | 'offline' | 'failed' {
  if (error instanceof DownloadError && error.code === 'CHUNK_TAMPERED') return 'tampered';
  if (error instanceof DownloadError && error.code === 'OFFLINE') return 'offline';
  return 'failed';
}
