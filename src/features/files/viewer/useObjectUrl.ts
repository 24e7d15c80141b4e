import { useEffect, useState } from 'react';

/**
 * An object URL of `blob` re-typed as `type` (see previewBlobType), revoked when the blob
 * changes or the component unmounts.
 */
export function useObjectUrl(blob: Blob | null, type: string): string | null {
  const [state, setState] = useState<{ blob: Blob; type: string; url: string } | null>(null);
  useEffect(() => {
    if (!blob) return;
    const typed = blob.type === type ? blob : blob.slice(0, blob.size, type);
    const url = URL.createObjectURL(typed);
    setState({ blob, type, url });
    return () => URL.revokeObjectURL(url);
  }, [blob, type]);
  // The URL of a previous blob is revoked by now: never hand it out for the new one.
  return state && state.blob === blob && state.type === type ? state.url : null;
}
