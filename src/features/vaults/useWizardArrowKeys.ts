import { useWindowKeyDown } from '../../ui/pageKeys';

/** Focus in these keeps its own arrow keys: text fields move the caret, radio cards the choice. */
function ownsArrowKeys(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest('input, textarea, select, [role="radio"], [role="tab"], [role="slider"], [role="listbox"], [role="menu"]')) return true;
  return false;
}

/** Left and Right move between the wizard's steps (spec 002 section 2 "Vault creation"). */
export function useWizardArrowKeys(onPrevious: (() => void) | null, onNext: (() => void) | null) {
  useWindowKeyDown((event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (ownsArrowKeys(event.target) || document.querySelector('[role="dialog"]')) return;
    if (event.key === 'ArrowLeft' && onPrevious) {
      event.preventDefault();
      onPrevious();
    } else if (event.key === 'ArrowRight' && onNext) {
      event.preventDefault();
      onNext();
    }
  });
}
