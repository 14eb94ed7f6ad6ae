import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
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
});
