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
  // Fields and media keep their keys (a video's seek bar takes the arrows).
  if (target?.closest('input:not([type=checkbox]):not([type=radio]), textarea, select, video, audio')) return false;
  return !document.querySelector('[role="dialog"], [role="menu"]');
}
