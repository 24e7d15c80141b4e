import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { isPageKey } from '../../ui/pageKeys';

/** Escape in the file list goes to /vaults/active (spec 000 section 2), unless typing or a dialog/menu is open. */
export function useEscapeToVaults() {
  const navigate = useNavigate();
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape' || !isPageKey(event)) return;
      void navigate({ to: '/vaults/$status', params: { status: 'active' } });
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [navigate]);
}
