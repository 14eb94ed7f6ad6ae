import { expect, test, type Page } from '@playwright/test';
import { buy, fillContact, givenEventOnSale, logInToConsole, ORGANISER, signIn, tenantOrigin, type Api, type OnSale } from './support';

// Issue 21 §1 and §3 on a phone: a buyer who reaches checkout before their turn is sent to the
// waiting room (by the answer's domain code), and a turn in line that has placed its orders says so;
// an organiser who resent an order's tickets too often is told when the next may go.

/** Toasts slide in: wait until nothing on the page is animating before a screenshot. */
async function settled(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.waitForTimeout(400);
}

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

async function setRoom(organiser: Api, event: OnSale, opensAt: Date, admitPerMinute: number) {
  const res = await organiser.ctx.put(`/api/tenants/${organiser.tenantId}/events/${event.eventId}/waiting-room`, {
    data: { enabled: true, opensAt: opensAt.toISOString(), admitPerMinute },
    headers: { 'x-csrf-token': organiser.csrf },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** PLACE ORDER from inside the buyer's page (its cookies, its origin), as a script in that browser would. */
async function placeOrderFromPage(page: Page, tenantId: string, event: OnSale, email: string): Promise<string> {
  return page.evaluate(
    async ({ tenantId, eventId, ticketTypeId, email }) => {
      const res = await fetch(`/api/p/tenants/${tenantId}/events/${eventId}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          order: {
            email,
            firstName: 'Grace',
            lastName: 'Hopper',
            phone: '+16175550123',
            address1: '1 Navy Yard',
            address2: 'Building 5',
            city: 'Boston',
            state: 'MA',
            zipCode: '02129',
            country: 'USA',
            optInEmail: false,
            optInText: false,
          },
          lines: [{ ticketTypeId, quantity: 1 }],
          source: 'online',
        }),
      });
      return `${res.status} ${res.status === 201 ? '' : await res.text()}`.trim();
    },
    { tenantId, eventId: event.eventId, ticketTypeId: event.ticketTypeIds['General Admission']!, email },
  );
}

test.describe('limits on a phone (issue 21)', () => {
  test.use({ viewport: PHONE });

  test('checkout before your turn leads to the line; a turn that placed its two orders says so', async ({ page, baseURL }) => {
    const origin = tenantOrigin(baseURL);
    const organiser = await signIn(origin, ORGANISER);
    const event = await givenEventOnSale(organiser, { prefix: 'Line Night' });
    await setRoom(organiser, event, new Date(Date.now() + 3_600_000), 60);
    const email = `line.${Date.now().toString(36)}@example.com`;

    await page.goto(`${origin}/${event.urlName}/tickets`);
    await page.getByRole('button', { name: 'Add one General Admission' }).click();
    await page.getByTestId('view-cart').click();
    await page.getByTestId('continue').click();
    await fillContact(page, email);
    await page.getByTestId('place-order').click();
    await expect(page).toHaveURL(new RegExp(`/${event.urlName}/line\\?next=account$`));
    await expect(page.getByRole('heading', { name: 'You are in line' })).toBeVisible();

    // The line opens: this buyer's turn comes.
    await setRoom(organiser, event, new Date(Date.now() - 60_000), 6000);
    await page.reload();
    await expect(page.getByRole('heading', { name: "It's your turn" })).toBeVisible();
    // Two orders with this turn (held, not paid), placed from this browser.
    for (let i = 0; i < 2; i++) expect(await placeOrderFromPage(page, organiser.tenantId, event, email)).toBe('201');

    await page.getByTestId('waiting-room-continue').click();
    await expect(page).toHaveURL(new RegExp(`/${event.urlName}/account$`));
    // Back on checkout with the cart and the form as the buyer left them.
    await expect(page.getByTestId('field-email')).toHaveValue(email);
    await page.getByTestId('place-order').click();
    const toast = page.getByTestId('toast').filter({ hasText: 'Your order could not be placed' });
    await expect(toast).toContainText('You have placed 2 orders with this turn in line, the most one turn allows.');
    // Still on checkout (not sent round the line again).
    await expect(page).toHaveURL(new RegExp(`/${event.urlName}/account$`));
    await settled(page);
    await page.screenshot({ path: '/tmp/money-turn-limit-390.png' });

    await page.setViewportSize(DESKTOP);
    await page.getByTestId('place-order').click();
    await expect(toast.first()).toBeVisible();
    await settled(page);
    await page.screenshot({ path: '/tmp/money-turn-limit-1280.png' });
    await organiser.ctx.dispose();
  });

  test("the order page's Resend says when the order's tickets may be sent again", async ({ browser, page, baseURL }) => {
    test.setTimeout(150_000);
    const origin = tenantOrigin(baseURL);
    const organiser = await signIn(origin, ORGANISER);
    const event = await givenEventOnSale(organiser, { prefix: 'Resend Night' });
    const buyer = await browser.newPage({ viewport: DESKTOP });
    const orderUID = await buy(buyer, origin, event.urlName, `resend.${Date.now().toString(36)}@example.com`);
    await buyer.close();
    // Five resends in the last hour (the order's limit), as the organiser's API sends them.
    await expect
      .poll(async () => {
        const res = await organiser.ctx.post(`/api/tenants/${organiser.tenantId}/events/${event.eventId}/resend`, { data: { orderUID }, headers: { 'x-csrf-token': organiser.csrf } });
        return res.status();
      })
      .toBe(200);
    for (let i = 0; i < 4; i++) {
      const res = await organiser.ctx.post(`/api/tenants/${organiser.tenantId}/events/${event.eventId}/resend`, { data: { orderUID }, headers: { 'x-csrf-token': organiser.csrf } });
      expect(res.status(), await res.text()).toBe(200);
    }

    await logInToConsole(page, origin, ORGANISER.email, ORGANISER.password);
    await page.goto(`${origin}/event/${event.eventId}/order/${orderUID}`);
    await expect(page.getByRole('heading', { name: `Order ${orderUID}` })).toBeVisible();
    await page.getByRole('button', { name: 'Resend Tickets' }).click();
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Failed to Resent Tickets' });
    await expect(toast).toContainText(/This order’s tickets were sent 5 times in the last hour\. You can send them again in (59|60) minutes\./);
    await expect(toast).toBeInViewport({ ratio: 1 });
    await settled(page);
    await page.screenshot({ path: '/tmp/money-resend-limit-390.png' });

    await page.setViewportSize(DESKTOP);
    await page.reload();
    await page.getByRole('button', { name: 'Resend Tickets' }).click();
    await expect(toast).toBeVisible();
    await settled(page);
    await page.screenshot({ path: '/tmp/money-resend-limit-1280.png' });
    await organiser.ctx.dispose();
  });
});
