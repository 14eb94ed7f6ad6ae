import type { ReactNode } from 'react';
import site from '../components/site.module.css';
import { Button } from './button';
import { IconTicket } from './icons';

/** A page of the organiser's site that belongs to no event (a buyer's order, unsubscribing): their name, the page, the footer. */
export function OrganiserShell({ organiser, title, footerNote, children }: { organiser: string; title: string; footerNote: string; children: ReactNode }) {
  return (
    <div className={site.shell}>
      <header className={site.header}>
        <div className={site.headerInner}>
          <span className={site.brand}>
            <span className={site.brandMark}>
              <IconTicket size={18} />
            </span>
            <span className={site.brandText}>
              <span className={site.brandEvent}>{organiser || title}</span>
            </span>
          </span>
        </div>
      </header>
      <main className={site.main}>{children}</main>
      <footer className={site.footer}>
        <div className={`${site.container} ${site.footerInner}`}>
          <span>
            © {new Date().getFullYear()} {organiser}
          </span>
          <span>{footerNote}</span>
        </div>
      </footer>
    </div>
  );
}

/** The box office could not be reached: say so and offer to try again. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className={site.center}>
      <div className={site.centerBox}>
        <h1>This page could not be shown</h1>
        <p className={site.muted}>We could not reach the box office. Please check your connection and try again.</p>
        <Button onClick={onRetry}>Try again</Button>
      </div>
    </div>
  );
}
