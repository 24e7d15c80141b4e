import { useEffect, useState } from 'react';
import type { FileVersion } from '../../protocol/vaults';

export type VersionUrl = { status: 'loading' } | { status: 'ready'; url: string } | { status: 'error'; message: string };

/**
 * An object URL of a version's checked bytes while the page shows it (revoked after), or why it
 * could not be had (a tampered chunk says so). `version` null: nothing to load.
 */
export function useVersionUrl(version: FileVersion | null, download: (version: FileVersion) => Promise<Blob>): VersionUrl | null {
  const [state, setState] = useState<{ id: string; url: VersionUrl } | null>(null);
  const id = version?.versionId ?? null;
  useEffect(() => {
    if (!version) return;
    let isCurrent = true;
    let url: string | null = null;
    setState({ id: version.versionId, url: { status: 'loading' } });
    download(version).then(
      (blob) => {
        if (!isCurrent) return;
        url = URL.createObjectURL(blob);
        setState({ id: version.versionId, url: { status: 'ready', url } });
      },
      (error: unknown) => isCurrent && setState({ id: version.versionId, url: { status: 'error', message: error instanceof Error ? error.message : 'There was an error downloading the file.' } }),
    );
    return () => {
      isCurrent = false;
      if (url) URL.revokeObjectURL(url);
    };
    // The version id names the bytes: a new object with the same id is the same version.
  }, [id, download]);
  if (!id) return null;
  return state?.id === id ? state.url : { status: 'loading' };
}
