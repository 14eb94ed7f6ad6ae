import { useEffect } from 'react';
import { isConsolePath } from '../../shared/mode';
import site from '../../features/attendee/event-site/components/site.module.css';
import { Button } from '../../features/attendee/event-site/kit/button';
import { Spinner } from '../../features/attendee/event-site/kit/notice';

export type SiteFallbackProps = { kind: 'loading' | 'error' | 'not-found' | 'embed-refused' };

/** Loading, error and not-found for the attendee site (no console code, no Mantine). */
export function SiteFallback({ kind }: SiteFallbackProps) {
  // A link to a console path (/login, /profile) is another bundle: load it with a full page load.
  const toConsole = kind === 'not-found' && typeof window !== 'undefined' && isConsolePath(window.location.pathname);
  useEffect(() => {
    if (toConsole) window.location.assign(window.location.href);
  }, [toConsole]);

  if (kind === 'loading' || toConsole) {
    return (
      <div className={site.center} aria-busy="true">
        <Spinner large />
      </div>
    );
  }
  if (kind === 'embed-refused') {
    // Issue 28: framed by a website the organiser did not allow (the widget's own check, after the CSP's).
    return (
      <div className={site.center} data-testid="embed-refused">
        <div className={site.centerBox}>
          <h1>Tickets are not sold on this website</h1>
          <p className={site.muted}>The organiser has not allowed this website to show their tickets. Please buy them on the organiser's own site.</p>
        </div>
      </div>
    );
  }
  return (
    <div className={site.center}>
      <div className={site.centerBox}>
        <h1>{kind === 'error' ? 'This page could not be shown' : 'Page not found'}</h1>
        <p className={site.muted}>{kind === 'error' ? 'Please reload the page.' : 'There is nothing at this address.'}</p>
        {kind === 'error' && <Button onClick={() => window.location.reload()}>Reload</Button>}
      </div>
    </div>
  );
}
