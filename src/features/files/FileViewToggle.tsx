import { ActionIcon, Group } from '@mantine/core';
import { useCallback, useSyncExternalStore } from 'react';

export type FileView = 'list' | 'grid';

/** Per device (this browser), not per account: a phone may prefer tiles and a desktop the list. */
const STORAGE_KEY = 'cairn.fileView';
const listeners = new Set<() => void>();

function readView(): FileView {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'grid' ? 'grid' : 'list';
  } catch {
    return 'list';
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The file view this device last chose ('list' at first), and its setter; remembered across reloads. */
export function useFileView(): [FileView, (view: FileView) => void] {
  const view = useSyncExternalStore(subscribe, readView, () => 'list' as const);
  const setView = useCallback((next: FileView) => {
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // A private window may refuse: the choice then lasts for this page only.
    }
    for (const listener of listeners) listener();
  }, []);
  return [view, setView];
}

const ICON = { width: 18, height: 18, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true } as const;

/** 'List view' and 'Grid view': two toggle buttons, the current one pressed. */
export function FileViewToggle({ view, onChange }: { view: FileView; onChange: (view: FileView) => void }) {
  return (
    <Group gap={2} wrap="nowrap" role="group" aria-label="View">
      <ActionIcon variant={view === 'list' ? 'light' : 'subtle'} color="gray" aria-label="List view" aria-pressed={view === 'list'} onClick={() => onChange('list')}>
        <svg {...ICON}>
          <path d="M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01" />
        </svg>
      </ActionIcon>
      <ActionIcon variant={view === 'grid' ? 'light' : 'subtle'} color="gray" aria-label="Grid view" aria-pressed={view === 'grid'} onClick={() => onChange('grid')}>
        <svg {...ICON}>
          <path d="M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h6v6h-6z" />
        </svg>
      </ActionIcon>
    </Group>
  );
}
