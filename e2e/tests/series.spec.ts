import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { pdfToY4m, phoneBrowserWithCamera, ticketsPdf } from './door-camera';
import { ADMIN, fillContact, mailsTo, ORGANISER, payOnGatewayPage, platformOrigin, post, signIn, tenantOrigin, uniqueEmail } from './support';

// Issue 28, done when: a weekly series with three dates, a buyer picks the second on a phone, the
// ticket (cart, order link, PDF) shows that date, and the scanner refuses it at another date's door.

type SeriesDate = { eventId: string; urlName: string; name: string; startDateTime: string };

/** The local calendar date in New York `days` from now. */
const dayFromNow = (days: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date(Date.now() + days * 86_400_000));

test.describe('event series', () => {
  test('a buyer picks the second of three weekly dates at 390 px; the ticket shows it; another date’s door refuses it', async ({ browser, baseURL }) => {
    test.setTimeout(240_000);
    const acme = tenantOrigin(baseURL);
    const organiser = await signIn(acme, ORGANISER);
    const suffix = Date.now().toString(36);
    const first = dayFromNow(10);
    const weekday = ((new Date(`${first}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;
    const series = await post<{ id: string; details: { urlName: string; dates: SeriesDate[] } }>(organiser, `/api/tenants/${organiser.tenantId}/series`, {
      details: {
        name: `Tide Walk ${suffix}`,
        timeZone: 'America/New_York',
        venueName: 'Pier 9',
        capacity: 12,
        ticketTypes: [{ name: 'Adult', price: 2000, quantity: 12 }],
        schedule: { weekly: { startDate: first, weekdays: [weekday], count: 3 }, startTime: '18:30', endTime: '20:00' },
        publish: true,
      },
    });
    const dates = series.details.dates;
    expect(dates).toHaveLength(3);
    const second = dates[1]!;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'marquee-series-'));
    const buyer = uniqueEmail('tide');
    const secondShortDay = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(second.startDateTime));
    const secondDay = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'long', month: 'long', day: 'numeric' }).format(new Date(second.startDateTime));

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await phone.newPage();
    await test.step('the series page lists three dates with what is left; the buyer picks the second', async () => {
      await page.goto(`${acme}/series/${series.details.urlName}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Tide Walk ${suffix}`);
      await expect(page.getByRole('link', { name: /12 left/ })).toHaveCount(3);
      await page.screenshot({ path: '/tmp/series-public-390.png', fullPage: true });
      await page.locator(`a[data-date="${second.eventId}"]`).click();
      await expect(page).toHaveURL(new RegExp(`/${second.urlName}/tickets$`));
      await expect(page.getByText(second.name).first()).toBeVisible();
    });

    await test.step('the cart shows the date; the buyer pays', async () => {
      // The page is server-rendered: a tap before it is interactive does nothing, so tap until the cart counts it.
      await expect(async () => {
        await page.getByRole('button', { name: 'Add one Adult' }).click();
        await expect(page.getByTestId('view-cart')).toBeEnabled({ timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      await page.getByTestId('view-cart').click();
      await expect(page.getByText(second.name).first()).toBeVisible();
      await expect(page.getByText(secondShortDay).first()).toBeVisible();
      await page.screenshot({ path: '/tmp/series-cart-390.png', fullPage: true });
      await page.getByTestId('continue').click();
      await fillContact(page, buyer);
      await page.getByTestId('place-order').click();
      await payOnGatewayPage(page);
      await expect(page.getByTestId('success-page')).toHaveAttribute('data-status', 'paid', { timeout: 20_000 });
    });

    await test.step('the order link and the ticket PDF show the second date', async () => {
      // The order link from the confirmation mail (read through the outbox's API).
      const admin = await signIn(platformOrigin(baseURL), ADMIN);
      let link = '';
      await expect
        .poll(async () => (link = /https?:\/\/\S+\/orders\/[A-Za-z0-9_-]+/.exec((await mailsTo(admin, buyer)).map((m) => m.details.text).join('\n'))?.[0] ?? ''), { timeout: 30_000 })
        .not.toBe('');
      await admin.ctx.dispose();
      await page.goto(link);
      await expect(page.getByText(second.name).first()).toBeVisible();
      await expect(page.getByText(secondDay).first()).toBeVisible();
      await page.screenshot({ path: '/tmp/series-order-link-390.png', fullPage: true });
      const pdf = await ticketsPdf(baseURL!, buyer);
      const pdfPath = path.join(dir, 'ticket.pdf');
      writeFileSync(pdfPath, pdf);
      const text = execFileSync('pdftotext', [pdfPath, '-']).toString();
      expect(text).toContain(`Tide Walk ${suffix}`);
      expect(text).toContain(secondDay);
    });
    await phone.close();

    // The door: the organiser's phone, whose camera is fed the buyer's real ticket.
    const video = pdfToY4m(await ticketsPdf(baseURL!, buyer), dir);
    const door = await phoneBrowserWithCamera(video);
    try {
      const context = await door.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      await context.grantPermissions(['camera'], { origin: acme });
      const scanner = await context.newPage();
      await scanner.goto(`${acme}/login`);
      // Signed in by the page itself (the form is the accounts' own tests'), so the session cookie is this phone's.
      const status = await scanner.evaluate(
        async (body) => (await fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
        { username: ORGANISER.email, password: ORGANISER.password },
      );
      expect(status).toBe(200);

      await test.step('at the third date’s door the ticket is refused as another event’s', async () => {
        await scanner.goto(`${acme}/events/${dates[2]!.eventId}/check-in`);
        const result = scanner.getByTestId('scan-result');
        await expect(result).toHaveAttribute('data-result', 'other_event', { timeout: 30_000 });
        await expect(result).toContainText('Another event');
        await scanner.screenshot({ path: '/tmp/series-wrong-door-390.png' });
      });

      await test.step('at the second date’s door it is admitted', async () => {
        await scanner.goto(`${acme}/events/${second.eventId}/check-in`);
        const result = scanner.getByTestId('scan-result');
        await expect(result).toHaveAttribute('data-result', 'admitted', { timeout: 30_000 });
      });
    } finally {
      await door.close();
    }
  });

  test('the console: the series’ ticket types edited for every date, the whole series exported, one row in the Events list; a date’s ticket menu links back (1280 and 390 px)', async ({ browser, baseURL }) => {
    test.setTimeout(240_000);
    const acme = tenantOrigin(baseURL);
    const organiser = await signIn(acme, ORGANISER);
    const suffix = Date.now().toString(36);
    const name = `Kayak Tour ${suffix}`;
    const series = await post<{ id: string; details: { urlName: string; dates: SeriesDate[]; ticketTypes: Array<{ id: string; name: string }> } }>(organiser, `/api/tenants/${organiser.tenantId}/series`, {
      details: {
        name,
        timeZone: 'America/New_York',
        venueName: 'Boat ramp',
        capacity: 12,
        ticketTypes: [{ name: 'Adult', price: 2500, quantity: 12 }],
        schedule: { dates: [dayFromNow(12), dayFromNow(13), dayFromNow(14)], startTime: '10:00', endTime: '12:00' },
        publish: true,
      },
    });
    const dates = series.details.dates;
    const second = dates[1]!;
    // Three tickets of the second date sold at the box office (a card terminal).
    const types = (await (await organiser.ctx.get(`/api/tenants/${organiser.tenantId}/events/${second.eventId}/ticket-types`)).json()) as { result: Array<{ id: string; details: { name: string } }> };
    const adult = types.result.find((t) => t.details.name === 'Adult')!;
    await post(organiser, `/api/tenants/${organiser.tenantId}/events/${second.eventId}/box-office/sales`, {
      idempotencyKey: randomUUID(),
      lines: [{ ticketTypeId: adult.id, quantity: 3 }],
      paymentMethod: 'card_terminal',
      terminalReference: `KAYAK-${suffix}`,
      firstName: 'Terminal',
      lastName: 'Paddler',
    });

    const desk = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await desk.newPage();
    // Signed in by the page itself (the login form is the accounts' own tests'), so the session cookie is this browser's.
    await page.goto(`${acme}/login`);
    const status = await page.evaluate(
      async (body) => (await fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
      { username: ORGANISER.email, password: ORGANISER.password },
    );
    expect(status).toBe(200);

    await test.step('the series page edits Adult for every date; the date that sold 3 keeps its quantity and is named', async () => {
      await page.goto(`${acme}/event-series/${series.id}`);
      const table = page.getByTestId('series-ticket-types');
      // The console's first load (its bundle) can be slow on a busy machine.
      await expect(table).toContainText('Adult', { timeout: 60_000 });
      await expect(table).toContainText('$25.00');
      await page.screenshot({ path: '/tmp/series2-page-1280.png', fullPage: true });
      await page.getByRole('button', { name: 'Edit Adult' }).click();
      await page.getByLabel('Price ($)').fill('30');
      await page.getByLabel('Quantity per date').fill('2');
      await page.getByRole('button', { name: 'Save for all dates' }).click();
      const kept = page.getByTestId('series-kept');
      await expect(kept).toContainText(second.name);
      await expect(kept).toContainText('Quantity cannot be less than the tickets already sold or held. (3 sold or held)');
      await page.screenshot({ path: '/tmp/series2-edit-kept-1280.png' });
      await page.getByRole('button', { name: 'Close', exact: true }).click();
      await expect(table).toContainText('$30.00');
      await expect(table.getByRole('row').filter({ hasText: 'Adult' })).toContainText('2');
    });

    await test.step('the whole series’ orders download as one CSV with the date first', async () => {
      await page.getByRole('button', { name: 'Export' }).click();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-series-orders').click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^${series.details.urlName}-orders-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
      const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
      const lines = csv.trimEnd().split('\r\n');
      expect(lines[0]).toMatch(/^Event Date,Date,Order ID,Event Name,Name,/);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain('Terminal Paddler');
      expect(lines[1]).toContain(`${dayFromNow(13)} 10:00`);
    });

    await test.step('the Events list shows the series as one row with its dates summed, linking to its page; a search finds a date', async () => {
      await page.goto(`${acme}/events`);
      const events = page.getByRole('table', { name: 'Events', exact: true });
      const row = events.getByRole('row').filter({ hasText: name });
      await expect(row).toHaveCount(1);
      await expect(row.getByTestId('series-dates')).toHaveText('3 dates');
      await expect(row).toContainText('3 sold');
      await page.screenshot({ path: '/tmp/series2-events-list-1280.png' });
      await page.getByPlaceholder('Search by event name').fill(name);
      await expect(events.getByRole('row').filter({ hasText: name })).toHaveCount(3);
      await expect(events.getByRole('link', { name: second.name })).toBeVisible();
      await page.getByPlaceholder('Search by event name').fill('');
      await expect(events.getByRole('row').filter({ hasText: name })).toHaveCount(1);
      await events.getByRole('link', { name }).click();
      await expect(page).toHaveURL(new RegExp(`/event-series/${series.id}$`));
    });

    await test.step('at 390 px: the Events list row, the series page', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${acme}/events`);
      const row = page.getByRole('table', { name: 'Events', exact: true }).getByRole('row').filter({ hasText: name });
      await expect(row).toContainText(/Next: /);
      await page.screenshot({ path: '/tmp/series2-events-list-390.png' });
      await page.goto(`${acme}/event-series/${series.id}`);
      await expect(page.getByTestId('series-ticket-types')).toContainText('$30.00');
      await page.screenshot({ path: '/tmp/series2-page-390.png', fullPage: true });
      await page.getByRole('button', { name: 'Edit Adult' }).click();
      await page.screenshot({ path: '/tmp/series2-edit-390.png' });
    });
    await desk.close();

    await test.step('a date’s ticket menu has “All dates” back to the series page, server-rendered too', async () => {
      const html = await (await organiser.ctx.get(`/${dates[0]!.urlName}/tickets`)).text();
      expect(html).toContain(`href="/series/${series.details.urlName}"`);
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      const buyer = await phone.newPage();
      await buyer.goto(`${acme}/${dates[0]!.urlName}/tickets`);
      const all = buyer.getByTestId('all-dates');
      await expect(all).toHaveText('All dates');
      await buyer.screenshot({ path: '/tmp/series2-menu-all-dates-390.png' });
      await all.click();
      await expect(buyer).toHaveURL(new RegExp(`/series/${series.details.urlName}$`));
      await expect(buyer.getByRole('heading', { level: 1 })).toHaveText(name);
      await buyer.setViewportSize({ width: 1280, height: 900 });
      await buyer.goto(`${acme}/${dates[0]!.urlName}/tickets`);
      await expect(buyer.getByTestId('all-dates')).toBeVisible();
      await buyer.screenshot({ path: '/tmp/series2-menu-all-dates-1280.png' });
      await phone.close();
    });
  });
});
