/**
 * Runs the vault room tour with driver.js (loaded on demand with this module, so only users who
 * see the tour download it). driver.js draws the highlight, places the popover, traps Tab inside
 * it and handles Esc and the arrow keys; vaultTour.css dresses it in Mantine's variables so it
 * follows the light and dark schemes.
 */
import 'driver.js/dist/driver.css';
import './vaultTour.css';
import { driver } from 'driver.js';
import type { TourStep } from './vaultTourSteps';

export interface RunningTour {
  /** Ends the tour without calling onClose (the page is going away, not the user closing it). */
  stop(): void;
}

/** The first target on screen: rendered, not display:none, with a size. */
function findTarget(targets: readonly string[]): Element | undefined {
  for (const target of targets) {
    for (const element of document.querySelectorAll(`[data-tour="${target}"]`)) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.height > 0) return element;
    }
  }
  return undefined;
}

/** Starts the tour; `onClose` runs once when the user skips, presses Esc or finishes it. */
export function startVaultTour(steps: readonly TourStep[], onClose: () => void): RunningTour {
  let isEnded = false;
  // The step's popover, busy while it appears: driver.js ignores Next, Back and the arrow keys until
  // the step has finished appearing (a frame later even without motion).
  let shownPopover: HTMLElement | undefined;
  // driver.js calls onDestroyed only once a step has finished appearing, so an early Skip or Esc
  // would go unheard: every way out comes through here instead (tour.destroy() itself does not
  // call onDestroyStarted).
  const close = () => {
    if (isEnded) return;
    isEnded = true;
    tour.destroy();
    onClose();
  };
  const tour = driver({
    steps: steps.map((step) => ({
      // A step whose targets are all missing (or that has none) is shown in the middle.
      element: () => findTarget(step.targets) as Element,
      // Texts are constants (driver.js writes them as HTML): never user data.
      popover: { title: step.title, description: step.text },
    })),
    popoverClass: 'cairn-tour',
    // driver.js ignores Next, Back and the arrow keys while a step animates in.
    animate: !window.matchMedia('(prefers-reduced-motion: reduce)').matches,
    showProgress: true,
    progressText: 'Step {{current}} of {{total}}',
    showButtons: ['next', 'previous'],
    nextBtnText: 'Next',
    prevBtnText: 'Back',
    doneBtnText: 'Done',
    allowClose: true,
    // A stray click on the dimmed page should not end the tour for good.
    overlayClickBehavior: () => undefined,
    disableActiveInteraction: true,
    overlayColor: '#000',
    overlayOpacity: 0.55,
    stagePadding: 6,
    stageRadius: 8,
    popoverOffset: 8,
    smoothScroll: true,
    onPopoverRender: (popover) => {
      shownPopover = popover.wrapper;
      popover.wrapper.setAttribute('aria-busy', 'true');
      // Progress above the title; Skip at the left of the footer (after Next in tab order).
      popover.wrapper.insertBefore(popover.progress, popover.title);
      const skip = document.createElement('button');
      skip.type = 'button';
      skip.className = 'driver-popover-footer-btn cairn-tour-skip';
      skip.textContent = 'Skip tour';
      skip.addEventListener('click', close);
      popover.footer.appendChild(skip);
      // driver.js focuses the first button (Back); Next is what the keyboard user wants.
      setTimeout(() => popover.nextButton.focus(), 0);
    },
    onHighlighted: () => shownPopover?.removeAttribute('aria-busy'),
    // Esc, and Done on the last step.
    onDestroyStarted: close,
  });
  tour.drive();
  return {
    stop() {
      if (isEnded) return;
      isEnded = true;
      tour.destroy();
    },
  };
}
