import { TICKET_MENU_ATTRIBUTE } from '@marquee/core';
import { forwardRef, memo, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { TicketMenuPage } from './ticket-menu-page';

export type PublishedPage = { version: number; html: string; css: string };


/**
 * The page's own markup, rendered once per HTML: re-rendering it would replace its nodes and leave
 * the ticket menu in the old, detached slot.
 */
const PageHtml = memo(
  forwardRef<HTMLDivElement, { html: string }>(function PageHtml({ html }, ref) {
    return <div ref={ref} className="marquee-event-page" data-testid="published-event-page" dangerouslySetInnerHTML={{ __html: html }} />;
  }),
);

/**
 * The organiser's page, sanitised by the server when it was published, with the live ticket menu
 * where the template marks it (an element with data-marquee-tickets), or after the page when it
 * marks nowhere.
 */
export function PublishedEventPage({ page }: { page: PublishedPage }) {
  const ref = useRef<HTMLDivElement>(null);
  const [slot, setSlot] = useState<Element | null>(null);
  useLayoutEffect(() => {
    setSlot(ref.current?.querySelector(`[${TICKET_MENU_ATTRIBUTE}]`) ?? null);
  }, [page.html]);
  return (
    <>
      <style>{page.css}</style>
      <PageHtml ref={ref} html={page.html} />
      {slot ? createPortal(<TicketMenuPage />, slot) : <TicketMenuPage />}
    </>
  );
}
