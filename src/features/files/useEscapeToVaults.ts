import { useNavigate } from '@tanstack/react-router';
import { isPageKey, useWindowKeyDown } from '../../ui/pageKeys';

/** Escape in the file list goes to /vaults/active (spec 000 section 2), unless typing or a dialog/menu is open. */
export function useEscapeToVaults() {
  const navigate = useNavigate();
  useWindowKeyDown((event) => {
    if (event.key === 'Escape' && isPageKey(event)) void navigate({ to: '/vaults/$status', params: { status: 'active' } });
  });
}
