import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { ADMIN, buy, givenEventOnSale, logInToConsole, ORGANISER, platformOrigin, post, signIn, tenantOrigin, uniqueEmail } from './support';

// Issue 23's Done-when "the order list and the dashboards show each with its channel", and issue 25's
// "they appear with their channel in every dashboard": after an online sale and two box-office sales
// (a card on the venue's terminal and a comp), the event dashboard and the tenant dashboard show
// Sales by channel at 390 px, with the box office split by payment method; the platform dashboard
// shows the same across tenants. Other browser tests sell in the same tenant at once, so the
// tenant-wide figures are checked as at least this test's own.

type Sale = { orderUID: string; totalAmount: number };
/** The first amount in a text ($1,234.56) in cents. */
const cents = (text: string | null) => Math.round(Number((/\$([\d,]+\.\d\d)/.exec(text ?? '')?.[1] ?? 'NaN').replace(/,/g, '')) * 100);

test('the dashboards show sales by channel (Online, Box office with its payment methods) and the comps at 390 px', async ({ browser, page, baseURL }) => {
  test.setTimeout(150_000);
  const acme = tenantOrigin(baseURL);
  const organiser = await signIn(acme, ORGANISER);
  const event = await givenEventOnSale(organiser, { prefix: 'Channel Night', tickets: [{ name: 'General Admission', description: 'Standing room.', price: 2500, quantity: 30 }] });
  const typeId = event.ticketTypeIds['General Admission']!;

  // Online: a buyer on the event site.
  const buyer = await browser.newPage();
  await buy(buyer, acme, event.urlName, uniqueEmail('online'));
  await buyer.close();

  // The box office: two tickets on the venue's card terminal, and one comp.
  const sell = (body: Record<string, unknown>) =>
    post<Sale>(organiser, `/api/tenants/${organiser.tenantId}/events/${event.eventId}/box-office/sales`, { idempotencyKey: randomUUID(), lines: [{ ticketTypeId: typeId, quantity: 1 }], ...body });
  const card = await sell({ paymentMethod: 'card_terminal', terminalReference: 'TERM-4417', lines: [{ ticketTypeId: typeId, quantity: 2 }] });
  await sell({ paymentMethod: 'complimentary', firstName: 'Guest', lastName: 'Of Honour' });

  await page.setViewportSize({ width: 390, height: 844 });
  await logInToConsole(page, acme, ORGANISER.email, ORGANISER.password);

  await test.step('the event dashboard: each channel with its gross, the box office by payment method, the comp apart', async () => {
    await page.goto(`${acme}/reports/sales/event/${event.eventId}`);
    const panel = page.getByTestId('sales-by-channel');
    await expect(panel.getByRole('heading', { name: 'Sales by channel' })).toBeVisible();
    const online = panel.getByTestId('channel-online');
    const door = panel.getByTestId('channel-backend');
    await expect(online).toContainText('Online');
    await expect(online.getByTestId('channel-counts')).toContainText('1 order · 1 ticket sold');
    await expect(door).toContainText('Box office');
    await expect(door.getByTestId('channel-gross')).toHaveText(`$${(card.totalAmount / 100).toFixed(2)}`);
    await expect(door.getByTestId('channel-counts')).toContainText('2 orders · 2 tickets sold · 1 complimentary');
    await expect(door.getByTestId('method-card_terminal')).toContainText('Card terminal');
    await expect(door.getByTestId('method-card_terminal')).toContainText(`$${(card.totalAmount / 100).toFixed(2)}`);
    // The comp: its own line at $0.00, and the card of complimentary tickets; never in gross sales.
    await expect(door.getByTestId('method-complimentary')).toContainText('Complimentary');
    await expect(door.getByTestId('method-complimentary')).toContainText('$0.00');
    await expect(page.getByTestId('card-complimentary-tickets')).toContainText('1');
    await expect(panel.getByTestId('channel-app').getByTestId('channel-gross')).toHaveText('$0.00');
    // The channels add up to GROSS SALES.
    const gross = cents(await page.getByTestId('card-gross-sales').textContent());
    const parts = await panel.getByTestId('channel-gross').allTextContents();
    expect(parts.reduce((n, t) => n + cents(t), 0)).toBe(gross);
    // The event's waiting list (issue 24): nobody joined.
    await expect(page.getByTestId('waitlist-figures')).toContainText('0 people joined · 0 bought');
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/channels-event-dashboard-390.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: '/tmp/channels-event-dashboard-1280.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
  });

  await test.step('the tenant dashboard shows each channel too', async () => {
    await page.goto(`${acme}/reports/sales`);
    const panel = page.getByTestId('sales-by-channel');
    await expect(panel.getByTestId('channel-backend')).toContainText('Box office');
    await expect(panel.getByTestId('channel-online')).toContainText('Online');
    await expect.poll(async () => cents(await panel.getByTestId('channel-backend').getByTestId('channel-gross').textContent())).toBeGreaterThanOrEqual(card.totalAmount);
    await expect.poll(async () => cents(await panel.getByTestId('channel-online').getByTestId('channel-gross').textContent())).toBeGreaterThan(0);
    await expect(panel.getByTestId('channel-backend').getByTestId('method-complimentary')).toBeVisible();
    await page.screenshot({ path: '/tmp/channels-tenant-dashboard-390.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: '/tmp/channels-tenant-dashboard-1280.png', fullPage: true });
  });

  await test.step("the platform dashboard shows the tenants' sales by channel", async () => {
    const operator = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const platform = platformOrigin(baseURL);
    await logInToConsole(operator, platform, ADMIN.email, ADMIN.password);
    await operator.goto(`${platform}/`);
    const panel = operator.getByTestId('sales-by-channel');
    await expect(panel.getByTestId('channel-backend')).toContainText('Tenants’ box offices');
    await expect.poll(async () => cents(await panel.getByTestId('channel-backend').getByTestId('channel-gross').textContent())).toBeGreaterThanOrEqual(card.totalAmount);
    await operator.screenshot({ path: '/tmp/channels-platform-dashboard-1280.png', fullPage: true });
    await operator.setViewportSize({ width: 390, height: 844 });
    await operator.screenshot({ path: '/tmp/channels-platform-dashboard-390.png', fullPage: true });
    await operator.close();
  });
});
