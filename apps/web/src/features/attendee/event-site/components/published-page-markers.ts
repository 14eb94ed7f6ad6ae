// Where the server renderer puts a published page's ticket menu (published-event-page.tsx, ssr-entry.tsx).

/** The server-rendered copy of the ticket menu, inside the page's slot until the live one replaces it. */
export const SSR_MENU_ATTRIBUTE = 'data-mq-ssr-menu';
/** Ends the menu's markup in the server renderer's first pass. */
export const SSR_MENU_END_ATTRIBUTE = 'data-mq-ssr-menu-end';
