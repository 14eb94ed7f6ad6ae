import { TICKET_MENU_ATTRIBUTE } from '@marquee/core';
import { forwardRef, memo, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { SSR_MENU_ATTRIBUTE, SSR_MENU_END_ATTRIBUTE } from './published-page-markers';
import { TicketMenuPage } from './ticket-menu-page';

/** `menuInSlot`: set by the server renderer only, when `html` already holds the menu's markup in its slot. */
export type PublishedPage = { version: number; html: string; css: string; menuInSlot?: boolean };


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
 * marks nowhere. The server renders the menu into the slot (two passes, ssr-entry.tsx), so nothing
 * moves when the browser takes over: its first render leaves the server's copy in place, and the
 * layout effect swaps it for the live menu before the first paint.
 */
export function PublishedEventPage({ page }: { page: PublishedPage }) {
  const ref = useRef<HTMLDivElement>(null);
  const [slot, setSlot] = useState<Element | null>(null);
  const [serverMenuInSlot] = useState(() => typeof document !== 'undefined' && !!document.querySelector(`.marquee-event-page [${SSR_MENU_ATTRIBUTE}]`));
  useLayoutEffect(() => {
    const found = ref.current?.querySelector(`[${TICKET_MENU_ATTRIBUTE}]`) ?? null;
    found?.querySelector(`[${SSR_MENU_ATTRIBUTE}]`)?.remove();
    setSlot(found);
  }, [page.html]);
  let menu: React.ReactNode = null;
  if (slot) menu = createPortal(<TicketMenuPage />, slot);
  else if (typeof document === 'undefined' && !page.menuInSlot && page.html.includes(TICKET_MENU_ATTRIBUTE)) {
    // The server's first pass: the menu's markup, cut out by ssr-entry.tsx and put into the slot.
    menu = (
      <>
        <div {...{ [SSR_MENU_ATTRIBUTE]: '' }}>
          <TicketMenuPage />
        </div>
        <span hidden {...{ [SSR_MENU_END_ATTRIBUTE]: '' }} />
      </>
    );
  } else if (!page.menuInSlot && !serverMenuInSlot) menu = <TicketMenuPage />;
  return (
    <>
      <style>{page.css}</style>
      <PageHtml ref={ref} html={page.html} />
      {menu}
    </>
  );
}
