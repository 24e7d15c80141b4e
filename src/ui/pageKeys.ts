import { useEffect, useEffectEvent } from 'react';

/**
 * Whether a key press belongs to the page (its shortcuts: Escape to go back, arrows to step)
 * rather than to a dialog, a menu or a field. A dialog may already be gone when the page's
 * listener hears the key that closed it (without animation, as when the system asks for reduced
 * motion, it unmounts within the same event), so the key's target is checked as well as the
 * document: a target inside a dialog or menu, attached or not, means the key was the dialog's.
 */
export function isPageKey(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return false;
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest('[role="dialog"], [role="menu"], [role="listbox"]')) return false;
  if (target instanceof HTMLElement && target.isContentEditable) return false;
  // Fields, sliders and media keep their keys (a video's seek bar takes the arrows).
  if (target?.closest('input:not([type=checkbox]):not([type=radio]), textarea, select, video, audio, [role="slider"]')) return false;
  return !document.querySelector('[role="dialog"], [role="menu"]');
}

/**
 * Calls `onKeyDown` for every key pressed on the page, with the props of the latest render. The
 * listener is registered once and reads the handler React commits, not one a passive effect
 * installs after the paint: a key pressed the moment a new file or step is on screen (a busy
 * phone presses before the effects run) acts from what is on screen, not from the one before.
 */
export function useWindowKeyDown(onKeyDown: (event: KeyboardEvent) => void): void {
  const handle = useEffectEvent(onKeyDown);
  useEffect(() => {
    const listener = (event: KeyboardEvent) => handle(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
