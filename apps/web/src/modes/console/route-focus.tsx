import { useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation } from 'react-router';

const HEADING = 'h1, h2';

/**
 * WCAG 2.4.3 / 4.1.3: after a route change inside a console, focus moves to the new page's heading
 * and a polite live region reads its title, so keyboard and screen-reader users land on the page
 * rather than on <body>. Pages load lazily, so it waits (up to 3 s) for the heading to appear.
 * Not on the first load: the browser starts at the top of the page anyway.
 */
export function useRouteFocus(main: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const first = useRef(true);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let done = false;
    const land = () => {
      const heading = main.current?.querySelector<HTMLElement>(HEADING);
      if (!heading || done) return !!heading;
      done = true;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: false });
      setAnnouncement(heading.textContent?.trim() || document.title);
      return true;
    };
    if (land()) return;
    const observer = new MutationObserver(() => {
      if (land()) observer.disconnect();
    });
    if (main.current) observer.observe(main.current, { childList: true, subtree: true });
    const stop = window.setTimeout(() => observer.disconnect(), 3000);
    return () => {
      done = true;
      observer.disconnect();
      window.clearTimeout(stop);
    };
  }, [pathname, main]);
  return announcement;
}

/** The live region the route announcement is read from (visually hidden). */
export function RouteAnnouncer({ message }: { message: string }) {
  return (
    <div aria-live="polite" aria-atomic="true" data-testid="route-announcer" style={HIDDEN}>
      {message}
    </div>
  );
}

const HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;
