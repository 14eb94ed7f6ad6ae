import { expect, test, type ConsoleMessage, type Page, type Request } from '@playwright/test';
import { tenantOrigin } from './support';

// Server-rendered attendee pages hydrate (issue 13): the content is in the HTML the server sends,
// the app takes it over without asking the API for the event, without a hydration mismatch or any
// console error, and its buttons work.

function watch(page: Page) {
  const problems: string[] = [];
  const eventReads: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    // A failed request is judged below by its address (the browser's console line does not name it).
    if (m.text().startsWith('Failed to load resource')) return;
    if (m.type() === 'error' || m.type() === 'warning' || /hydrat/i.test(m.text())) problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('response', (res) => {
    const url = new URL(res.url());
    // An event without a published page answers 404 to the home's question for it (issue 10).
    if (res.status() >= 400 && !/^\/api\/p\/events\/[^/]+\/page$/.test(url.pathname)) problems.push(`${res.status()} ${url.pathname}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (req: Request) => {
    const url = new URL(req.url());
    // Pricing a selection (the ticket menu's bar, issue 21.7) is not a read of the event.
    if ((url.pathname.startsWith('/api/p/events') && !url.pathname.endsWith('/price')) || url.pathname === '/api/site/context') eventReads.push(url.pathname);
  });
  return { problems, eventReads };
}

test.describe('server-rendered pages hydrate', () => {
  test('the ticket menu arrives rendered, hydrates without a mismatch, and its quantity buttons work', async ({ page, baseURL }) => {
    const origin = tenantOrigin(baseURL);
    const seen = watch(page);
    const response = await page.goto(`${origin}/summer-jam/tickets`);
    const html = await response!.text();
    expect(html).toContain('<div id="root" data-ssr>');
    expect(html).toMatch(/data-testid="ticket-type-General Admission"/);
    await expect(page.locator('html[data-live="true"]')).toBeAttached();
    const ticket = page.getByTestId('ticket-type-General Admission');
    await ticket.getByRole('button', { name: 'Add one General Admission' }).click();
    await expect(page.getByTestId('qty-General Admission-value')).toHaveText('1');
    await expect(page.getByText('1 ticket selected')).toBeVisible();
    await ticket.getByRole('button', { name: 'Remove one General Admission' }).click();
    await expect(page.getByTestId('qty-General Admission-value')).toHaveText('0');
    expect(seen.eventReads).toEqual([]);
    expect(seen.problems).toEqual([]);
  });

  test('the event home hydrates and moves on to the ticket menu in the app', async ({ page, baseURL }) => {
    const origin = tenantOrigin(baseURL);
    const seen = watch(page);
    await page.goto(`${origin}/summer-jam/`);
    await expect(page.locator('html[data-live="true"]')).toBeAttached();
    await expect(page.getByTestId('event-name')).toHaveText('Summer Jam');
    await page.getByTestId('get-tickets').click();
    await expect(page).toHaveURL(/\/summer-jam\/tickets$/);
    await expect(page.getByTestId('ticket-type-VIP')).toBeVisible();
    expect(seen.eventReads).toEqual([]);
    expect(seen.problems).toEqual([]);
  });

  test('the ticket menu paints styled from the document alone, and hydrating or moving in the app changes no style (390 and 1280 px)', async ({ browser, baseURL }) => {
    // Issue 27 (paint2): the page's styles are inline (a <style> each, its file's <link> disabled), so
    // no stylesheet is a request before the first paint; the app's chunks find their styles there.
    const origin = tenantOrigin(baseURL);
    // What a person sees of a few elements: the title's font and size, the ticket's card, the bar's button.
    const looks = (page: Page) =>
      page.evaluate(() => {
        const pick = (sel: string, props: string[]) => {
          const el = document.querySelector(sel);
          if (!el) return `${sel}: missing`;
          const cs = getComputedStyle(el);
          return `${sel}: ${props.map((p) => cs.getPropertyValue(p)).join(' / ')}`;
        };
        return [
          pick('h1', ['font-size', 'font-weight', 'color']),
          pick('[data-testid="ticket-type-General Admission"]', ['border-top-left-radius', 'background-color', 'padding-top', 'display']),
          pick('[data-testid="view-cart"]', ['background-color', 'color', 'border-top-left-radius']),
        ];
      });
    for (const [w, h] of [[390, 844], [1280, 900]] as const) {
      // Before the app runs (scripts off: the page as the server sent it) ...
      const still = await browser.newContext({ viewport: { width: w, height: h }, javaScriptEnabled: false });
      const before = await still.newPage();
      const css: string[] = [];
      before.on('request', (r) => r.resourceType() === 'stylesheet' && css.push(r.url()));
      await before.goto(`${origin}/summer-jam/tickets`);
      await expect(before.getByTestId('ticket-type-General Admission')).toBeVisible();
      expect(css, 'no stylesheet request before the first paint').toEqual([]);
      const unhydrated = await looks(before);
      // The styles applied: the card is not the browser's default block without padding.
      expect(unhydrated[1]).not.toMatch(/0px \/ rgba\(0, 0, 0, 0\) \/ 0px/);
      await before.screenshot({ path: test.info().outputPath(`tickets-${w}-before-hydration.png`), fullPage: true });
      await still.close();
      // ... and once it has hydrated: the same styles, still no stylesheet fetched for the page itself.
      const live = await browser.newContext({ viewport: { width: w, height: h } });
      const page = await live.newPage();
      const fetched: string[] = [];
      page.on('request', (r) => r.resourceType() === 'stylesheet' && fetched.push(new URL(r.url()).pathname));
      await page.goto(`${origin}/summer-jam/tickets`);
      await expect(page.locator('html[data-live="true"]')).toBeAttached();
      expect(await looks(page)).toEqual(unhydrated);
      // The page's own styles (carried inline) are not fetched again by the app's chunk loader.
      const carried = await page.locator('style[data-href]').evaluateAll((els) => els.map((e) => e.getAttribute('data-href')));
      expect(carried.length).toBeGreaterThan(0);
      expect(fetched.filter((f) => carried.includes(f))).toEqual([]);
      await page.screenshot({ path: test.info().outputPath(`tickets-${w}-after-hydration.png`), fullPage: true });
      // A move inside the app (to the event's home and back) keeps every style.
      await page.getByRole('link', { name: 'Back to Home' }).click();
      await expect(page.getByTestId('event-name')).toHaveText('Summer Jam');
      await page.getByTestId('get-tickets').click();
      await expect(page.getByTestId('ticket-type-VIP')).toBeVisible();
      expect(await looks(page)).toEqual(unhydrated);
      await live.close();
    }
  });

  test("the tenant host's public /events lists the organiser's events and links to each", async ({ page, baseURL }) => {
    const origin = tenantOrigin(baseURL);
    const seen = watch(page);
    const response = await page.goto(`${origin}/events`);
    expect(await response!.text()).toContain('"@type":"ItemList"');
    await expect(page.locator('html[data-live="true"]')).toBeAttached();
    await expect(page.getByRole('heading', { name: 'Upcoming events' })).toBeVisible();
    const card = page.getByTestId('public-event-summer-jam');
    await expect(card).toContainText('Summer Jam');
    await expect(card).toContainText('From');
    for (const [w, h] of [[1280, 900], [390, 844]] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: test.info().outputPath(`public-events-${w}.png`), fullPage: true });
    }
    await card.getByRole('link', { name: 'Get tickets for Summer Jam' }).click();
    await expect(page).toHaveURL(/\/summer-jam\/$/);
    await expect(page.getByTestId('event-name')).toHaveText('Summer Jam');
    expect(seen.problems).toEqual([]);
  });
});
