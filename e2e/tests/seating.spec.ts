import { expect, test } from '@playwright/test';
import { seatColours, seatPlan, TAKEN, tapSeat } from './seat-canvas';
import { ADMIN, fillContact, givenEventOnSale, mailsTo, ORGANISER, payOnGatewayPage, platformOrigin, signIn, tenantOrigin, type Api, type Mail } from './support';

// Issue 27: reserved seating at 390 px. A buyer picks two adjacent seats on the map, pays, and the
// seats are on the order link (the PDF prints them: apps/server seating.test.ts reads its text); a
// second buyer sees them taken and takes the best two together instead.

const PHONE = { width: 390, height: 844 };

async function seatedEvent(organiser: Api) {
  const event = await givenEventOnSale(organiser, {
    prefix: 'Seated Night',
    tickets: [
      { name: 'Stalls', description: 'Close to the stage.', price: 5000, quantity: 32 },
      { name: 'Programme', description: 'The printed programme.', price: 500, quantity: 100 },
    ],
  });
  const headers = { 'x-csrf-token': organiser.csrf };
  const layout = await organiser.ctx.post(`/api/tenants/${organiser.tenantId}/venue-layouts`, {
    headers,
    data: { name: `Studio ${event.urlName}`, sections: [{ name: 'Stalls', category: 'Stalls', rows: 4, seatsPerRow: 8, aisleAfter: [4] }], blocked: [], accessible: [] },
  });
  expect(layout.ok(), await layout.text()).toBeTruthy();
  const set = await organiser.ctx.put(`/api/tenants/${organiser.tenantId}/events/${event.eventId}/seating`, {
    headers,
    data: { layoutId: ((await layout.json()) as { id: string }).id, categories: [{ category: 'Stalls', ticketTypeId: event.ticketTypeIds.Stalls }] },
  });
  expect(set.ok(), await set.text()).toBeTruthy();
  return event;
}

/** Row B, seats 2 and 3 (numbers 9 and 10 in the plan: row A is 0-7). */
const B2 = 9;
const B3 = 10;

test.describe('reserved seating on a phone', () => {
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

  test('a buyer picks two adjacent seats and pays; the seats are on the order link; a second buyer sees them taken and uses best available', async ({ browser, baseURL }) => {
    const origin = tenantOrigin(baseURL);
    const event = await seatedEvent(organiser);
    const email = `seated.${Date.now().toString(36)}@example.com`;

    const first = await browser.newContext({ viewport: PHONE });
    const page = await first.newPage();
    await page.goto(`${origin}/${event.urlName}/tickets`);
    await expect(page.getByTestId('seat-map')).toBeVisible();
    await expect(page.getByTestId('seated-Stalls')).toHaveText('Choose seats on the map');
    await page.screenshot({ path: '/tmp/seats-map-390.png', fullPage: true });
    // The map is a canvas: a tap where seat B2 is drawn (seat-canvas.ts).
    const plan = await seatPlan(page, organiser.tenantId, event.eventId);
    await tapSeat(page, plan, B2);
    await expect(page.getByTestId('chosen-seats')).toContainText('Stalls · Row B · Seat 2');
    await tapSeat(page, plan, B3);
    await expect(page.getByTestId('chosen-seats')).toContainText('Stalls · Row B · Seat 3');
    await expect(page.getByTestId('seated-Stalls')).toHaveText('2 seats chosen');
    await page.getByRole('button', { name: 'Add one Programme' }).click();
    await page.screenshot({ path: '/tmp/seats-map-chosen-390.png', fullPage: true });

    // The second buyer, in another browser, sees both seats taken within the poll (2 s) and finds the best two together elsewhere.
    const second = await browser.newContext({ viewport: PHONE });
    const other = await second.newPage();
    await other.goto(`${origin}/${event.urlName}/tickets`);
    await other.getByText('Choose from a list of seats instead').click();
    await expect(other.getByRole('button', { name: 'Stalls · Row B · Seat 2, not available' })).toBeDisabled();
    await expect(other.getByRole('button', { name: 'Stalls · Row B · Seat 3, not available' })).toBeDisabled();
    await other.getByTestId('best-available').click();
    await expect(other.getByTestId('chosen-seats')).toContainText('Row A');
    const taken = await other.getByTestId('chosen-seats').textContent();
    expect(taken).not.toContain('Row B · Seat 2');
    await expect(page.getByTestId('seat-map')).toBeVisible();
    // The first buyer's map shows the second buyer's two seats taken within the 2 s poll.
    await expect.poll(async () => (await seatColours(page, plan)).filter((c) => c === TAKEN).length, { timeout: 5_000 }).toBe(2);

    // The first buyer pays: the cart shows the seats, then the checkout and the test gateway.
    await page.getByTestId('view-cart').click();
    await expect(page.getByTestId('cart-seats-Stalls')).toContainText('Stalls · Row B · Seat 2');
    await page.screenshot({ path: '/tmp/seats-cart-390.png', fullPage: true });
    await page.getByTestId('continue').click();
    await fillContact(page, email);
    await page.getByTestId('place-order').click();
    await payOnGatewayPage(page);
    await expect(page.getByTestId('success-page')).toHaveAttribute('data-status', 'paid', { timeout: 20_000 });

    let mail: Mail | undefined;
    await expect
      .poll(async () => ((mail = (await mailsTo(admin, email)).find((m) => m.details.subject === `Your tickets for ${event.name}`)) ? 1 : 0), { timeout: 30_000 })
      .toBe(1);
    const link = /(https?:\/\/\S+\/orders\/[A-Za-z0-9_-]{43})/.exec(mail!.details.text)![1]!;
    await page.goto(link);
    await expect(page.getByTestId('order-link-page')).toHaveAttribute('data-status', 'paid');
    await expect(page.getByTestId('order-link-seat')).toHaveCount(2);
    expect((await page.getByTestId('order-link-seat').allTextContents()).sort()).toEqual(['Stalls · Row B · Seat 2', 'Stalls · Row B · Seat 3']);
    await page.screenshot({ path: '/tmp/seats-order-link-390.png', fullPage: true });
    const pdf = await admin.ctx.get(mail!.details.attachments[0]!.url);
    expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Sold now: the second buyer's list still shows them unavailable.
    await other.reload();
    await other.getByText('Choose from a list of seats instead').click();
    await expect(other.getByRole('button', { name: 'Stalls · Row B · Seat 2, not available' })).toBeDisabled();
    await first.close();
    await second.close();
  });

  test('the box office sells seats: best available together, shown before the card is taken and on the receipt (390 px)', async ({ browser, baseURL }) => {
    const origin = tenantOrigin(baseURL);
    const event = await seatedEvent(organiser);
    const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const phone = await context.newPage();
    await phone.goto(`${origin}/login`);
    await phone.getByLabel('Email').fill(ORGANISER.email);
    await phone.locator('input[autocomplete="current-password"]').fill(ORGANISER.password);
    await phone.getByRole('button', { name: 'Log in' }).click();
    await expect(phone.getByTestId('console-nav')).toBeAttached();
    await phone.goto(`${origin}/events/${event.eventId}/box-office`);
    await expect(phone.getByRole('heading', { name: 'Box office' })).toBeVisible();
    await phone.getByRole('button', { name: 'One more Stalls' }).click();
    await phone.getByRole('button', { name: 'One more Stalls' }).click();
    // The two best seats together: the front row's centre (row A, right of the aisle or left of it).
    await expect(phone.getByTestId('sale-seat')).toHaveCount(2);
    await expect(phone.getByTestId('sale-seats')).toContainText('Row A');
    const held = await phone.getByTestId('sale-seat').allTextContents();
    await phone.getByTestId('pay-card_terminal').click();
    await phone.getByTestId('terminal-reference').fill('TERM-SEAT-1');
    await phone.screenshot({ path: '/tmp/seats2-box-office-seats-390.png', fullPage: true });
    await phone.getByTestId('complete-sale').click();
    await expect(phone.getByTestId('sale-receipt')).toBeVisible();
    await expect(phone.getByTestId('sold-ticket-seat')).toHaveText(held);
    await phone.screenshot({ path: '/tmp/seats2-box-office-receipt-390.png', fullPage: true });
    // Online, those seats are sold.
    const buyer = await browser.newContext({ viewport: PHONE });
    const online = await buyer.newPage();
    await online.goto(`${origin}/${event.urlName}/tickets`);
    await online.getByText('Choose from a list of seats instead').click();
    for (const label of held) await expect(online.getByRole('button', { name: `${label}, not available` })).toBeDisabled();
    const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await wide.addCookies(await context.cookies());
    const desk = await wide.newPage();
    await desk.goto(`${origin}/events/${event.eventId}/box-office`);
    await desk.getByRole('button', { name: 'One more Stalls' }).click();
    await expect(desk.getByTestId('sale-seat')).toHaveCount(1);
    await desk.screenshot({ path: '/tmp/seats2-box-office-seats-1280.png', fullPage: true });
    await Promise.all([context.close(), buyer.close(), wide.close()]);
  });
});
