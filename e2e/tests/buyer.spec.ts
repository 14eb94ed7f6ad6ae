import { expect, test, type Page } from '@playwright/test';
import { ADMIN, fillContact, givenEventOnSale, mailsTo, ORGANISER, payOnGatewayPage, platformOrigin, signIn, tenantOrigin, type Api, type Mail } from './support';

// Buyers' self-service (issue 15): the all-in price, the hold timer, the private order link from
// the tickets mail opened in a NEW browser context (download, resend), and "Find my tickets" from
// another context. Screenshots of the new screens at 390 and 1280 px go to the output directory.

const shots = process.env.E2E_SHOTS ?? '/tmp/e2e-buyer-shots';

const onSale = (organiser: Api) =>
  givenEventOnSale(organiser, {
    prefix: 'Harbour Lights',
    tickets: [
      { name: 'General Admission', description: 'Standing room.', price: 4000, quantity: 100 },
      { name: 'Balcony', description: 'Seated.', price: 6500, quantity: 20 },
    ],
  });

async function screenshots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
  }
}

test.describe('buyers come back to their orders', () => {
  let organiser: Api;
  let admin: Api;
  test.beforeAll(async ({ baseURL }) => {
    organiser = await signIn(tenantOrigin(baseURL), ORGANISER);
    admin = await signIn(platformOrigin(baseURL), ADMIN);
  });
  test.afterAll(async () => {
    await organiser.ctx.dispose();
    await admin.ctx.dispose();
  });

  test('buy, open the order link from the mail in a new browser, download and resend; find my tickets from another browser', async ({ page, browser, baseURL }) => {
    const origin = tenantOrigin(baseURL);
    const event = await onSale(organiser);
    const email = `comeback.${Date.now().toString(36)}@example.com`;
    const menu = (await (await organiser.ctx.get(`/api/p/events/${event.urlName}`)).json()) as { ticketTypes: Array<{ details: { name: string; price: number; allInPrice: number } }> };
    const ga = menu.ticketTypes.find((t) => t.details.name === 'General Admission')!.details;
    const money = (c: number) => `$${(c / 100).toFixed(2)}`;

    // The event page and the ticket menu show the all-in price first.
    await page.goto(`${origin}/${event.urlName}/`);
    await expect(page.getByTestId('event-name')).toHaveText(event.name);
    await expect(page.getByText(money(ga.allInPrice)).first()).toBeVisible();
    if (ga.allInPrice !== ga.price) await expect(page.getByText(/incl\. fees/).first()).toBeVisible();
    await screenshots(page, 'event-home');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${origin}/${event.urlName}/tickets`);
    await expect(page.getByTestId('ticket-type-General Admission')).toContainText(money(ga.allInPrice));
    await screenshots(page, 'ticket-menu');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Buy two General Admission tickets.
    await page.getByRole('button', { name: 'Add one General Admission' }).click();
    await page.getByRole('button', { name: 'Add one General Admission' }).click();
    await page.getByTestId('view-cart').click();
    await page.getByTestId('continue').click();
    await fillContact(page, email);
    await page.getByTestId('place-order').click();
    await payOnGatewayPage(page);
    await expect(page.getByTestId('success-page')).toHaveAttribute('data-status', 'paid', { timeout: 20_000 });
    const orderUID = new URL(page.url()).searchParams.get('orderID')!;

    // The tickets mail: receipt, the .ics, and the private order link.
    let mail: Mail | undefined;
    await expect
      .poll(async () => ((mail = (await mailsTo(admin, email)).find((m) => m.details.subject === `Your tickets for ${event.name}`)) ? 1 : 0), { timeout: 30_000 })
      .toBe(1);
    expect(mail!.details.attachments.map((a) => a.filename)).toEqual([`tickets_${orderUID}.pdf`, 'invite.ics']);
    expect(mail!.details.text).toContain('Receipt');
    expect(mail!.details.text).toContain('General Admission × 2 @ $40.00');
    const ics = await admin.ctx.get(mail!.details.attachments[1]!.url);
    expect((await ics.text()).replace(/\r\n /g, '')).toContain('DTSTART:20310913T000000Z');
    const link = /(https?:\/\/\S+\/orders\/[A-Za-z0-9_-]{43})/.exec(mail!.details.text)![1]!;

    // A NEW browser context (no storage of the buyer's): the order, its tickets, Download, Resend.
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const p2 = await other.newPage();
      await p2.goto(link);
      await expect(p2.getByTestId('order-link-page')).toHaveAttribute('data-status', 'paid');
      await expect(p2.getByTestId('order-uid')).toHaveText(orderUID);
      await expect(p2.getByTestId('order-link-ticket')).toHaveCount(2);
      await expect(p2.getByTestId('order-link-when')).toContainText('Friday, September 12, 2031');
      await expect(p2.getByTestId('order-link-when')).toContainText('America/New York');
      const [download] = await Promise.all([p2.waitForEvent('download'), p2.getByTestId('order-link-download').click()]);
      expect(download.suggestedFilename()).toBe(`tickets_${orderUID}.pdf`);
      const pdfPath = await download.path();
      const { readFileSync } = await import('node:fs');
      expect(readFileSync(pdfPath!).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      await p2.getByTestId('order-link-resend').click();
      await expect(p2.getByTestId('toast').filter({ hasText: 'Tickets sent' })).toBeVisible();
      await expect.poll(async () => (await mailsTo(admin, email)).filter((m) => m.details.subject === `Your tickets for ${event.name}`).length, { timeout: 30_000 }).toBe(2);
      await screenshots(p2, 'order-page');
      // A link with one character changed opens nothing.
      await p2.goto(link.slice(0, -1) + (link.endsWith('A') ? 'B' : 'A'));
      await expect(p2.getByTestId('order-link-not-found')).toBeVisible();
      await screenshots(p2, 'order-not-found');
    } finally {
      await other.close();
    }

    // Find my tickets, from yet another browser context.
    const third = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const p3 = await third.newPage();
      await p3.goto(`${origin}/${event.urlName}/`);
      await p3.getByTestId('find-my-tickets').click();
      await expect(p3.getByRole('heading', { name: 'Find my tickets' })).toBeVisible();
      await screenshots(p3, 'find-tickets');
      await p3.setViewportSize({ width: 1280, height: 900 });
      await p3.getByTestId('find-tickets-email').fill('not-an-address');
      await p3.getByTestId('find-tickets-submit').click();
      await expect(p3.getByText('Entered value does not match email format')).toBeVisible();
      await p3.getByTestId('find-tickets-email').fill(email);
      await p3.getByTestId('find-tickets-submit').click();
      await expect(p3.getByTestId('find-tickets-sent')).toContainText('If there are orders for this e-mail address');
      await screenshots(p3, 'find-tickets-sent');
      let found: Mail | undefined;
      await expect.poll(async () => ((found = (await mailsTo(admin, email)).find((m) => m.details.subject.startsWith('Your tickets from'))) ? 1 : 0), { timeout: 30_000 }).toBe(1);
      const listed = /(https?:\/\/\S+\/orders\/[A-Za-z0-9_-]{43})/.exec(found!.details.text)![1]!;
      await p3.goto(listed);
      await expect(p3.getByTestId('order-uid')).toHaveText(orderUID);
    } finally {
      await third.close();
    }
  });

  test('the checkout counts the hold down from the server’s expiry, warns a minute before and says when it ended', async ({ page, baseURL }) => {
    const origin = tenantOrigin(baseURL);
    const event = await onSale(organiser);
    await page.clock.install();
    await page.goto(`${origin}/${event.urlName}/tickets`);
    await page.getByRole('button', { name: 'Add one Balcony' }).click();
    await page.getByTestId('view-cart').click();
    await page.getByTestId('continue').click();
    await fillContact(page, `hold.${Date.now().toString(36)}@example.com`);
    await page.getByTestId('place-order').click();
    await expect(page).toHaveURL(/\/pay\//);
    // Back to checkout without paying: the hold this browser placed is counted down.
    await page.goto(`${origin}/${event.urlName}/account?payment=cancelled`);
    const timer = page.getByTestId('hold-timer');
    await expect(timer).toHaveAttribute('data-state', 'running');
    const left = (await page.getByTestId('hold-time-left').textContent())!;
    const [m, s] = left.split(':').map(Number) as [number, number];
    expect(m * 60 + s).toBeGreaterThan(60);
    await screenshots(page, 'hold-timer');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.clock.fastForward((m * 60 + s - 50) * 1000);
    await expect(timer).toHaveAttribute('data-state', 'warning');
    await expect(page.getByTestId('hold-warning')).toBeVisible();
    await expect(timer.locator('[aria-live="polite"]')).toContainText('Less than a minute left');
    await screenshots(page, 'hold-warning');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.clock.fastForward(60_000);
    await expect(timer).toHaveAttribute('data-state', 'ended');
    await expect(page.getByTestId('hold-ended')).toContainText('Your hold has ended.');
    await expect(page.getByTestId('payment-returned')).toContainText('your reservation has expired');
    await screenshots(page, 'hold-ended');
  });
});
