import { useRouter } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, MouseEvent } from 'react';

/** A click the browser should handle itself: a new tab or window, a download, another button. */
function isBrowserClick(e: MouseEvent<HTMLAnchorElement>): boolean {
  return e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || !!e.currentTarget.target;
}

/**
 * An anchor to an address in the app, for lists that mount rows by the dozen as they scroll.
 * TanStack Router's Link works out its location and active state and subscribes to the router
 * on each mount, which a fast scroll of a 10,000-file folder paid a dozen times a frame; this one
 * is a plain `<a href>` that navigates in the app on a plain click. A modified or middle click
 * keeps the browser's own behaviour (a new tab, a new window).
 */
export function PlainLink({ href, onClick, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const router = useRouter();
  return (
    <a
      href={href}
      {...props}
      onClick={(e) => {
        onClick?.(e);
        if (isBrowserClick(e)) return;
        e.preventDefault();
        void router.navigate({ href });
      }}
    />
  );
}
