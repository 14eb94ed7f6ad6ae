import { lazyPage } from '../site/site-router';

/** An event home's published page (issue 10), with the live ticket menu in it: loaded only for an event that has one. */
export const publishedEventPage = lazyPage(() => import('./components/published-event-page'), 'PublishedEventPage');
