import { expect, test, type Page } from '@playwright/test';
import {
  ADMIN,
  ORGANISER,
  buy,
  givenEventOnSale,
  logInToConsole,
  mailsTo,
  payOnGatewayPage,
  platformOrigin,
  post,
  signIn,
  tenantOrigin,
  uniqueEmail,
  waitForMail,
  type Api,
} from './support';

// Issue 24, the waiting list: a sold-out ticket type, two people join its list from a phone, a
// refund frees one ticket, the first person gets the offer mail (the outbox), claims and pays; the
// second gets nothing until another ticket comes back. Screenshots at 390 and 1280 px.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

async function shoot(page: Page, name: string) {
  for (const [size, viewport] of [['390', PHONE], ['1280', DESKTOP]] as const) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    await page.screenshot({ path: `/tmp/waitlist-${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize(PHONE);
}

async function join(page: Page, origin: string, urlName: string, email: string) {
  await page.goto(`${origin}/${urlName}/tickets`);
  const card = page.getByTestId('ticket-type-General Admission');
  await expect(card).toContainText('Sold out');
  await page.getByTestId('waitlist-open-General Admission').click();
  await page.getByTestId('waitlist-email-General Admission').fill(email);
  await page.getByTestId('waitlist-submit-General Admission').click();
  await expect(page.getByTestId('waitlist-joined-General Admission')).toContainText("You're on the waiting list.");
}

const offerMail = (s: string) => s.startsWith('Tickets are available for');

test.describe('the waiting list (issue 24)', () => {
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

  test('sold out: two join from a phone, a refund goes to the first, who claims and pays; the second waits for the next ticket', async ({ browser, baseURL }) => {
    test.setTimeout(240_000);
    const origin = tenantOrigin(baseURL);
    const event = await givenEventOnSale(organiser, { prefix: 'Last Waltz', tickets: [{ name: 'General Admission', description: 'Standing room.', price: 4000, quantity: 2, maxTicketPerOrder: 4 }] });
    const orders = `/api/tenants/${organiser.tenantId}/events/${event.eventId}/orders`;

    // Two buyers take both tickets.
    const buyOne = async () => {
      const ctx = await browser.newContext({ viewport: PHONE });
      const orderUid = await buy(await ctx.newPage(), origin, event.urlName, uniqueEmail('early'));
      await ctx.close();
      return orderUid;
    };
    const first = await buyOne();
    const second = await buyOne();

    // Alice and Bob find it sold out and join the list, each on their own phone.
    const alice = uniqueEmail('alice');
    const bob = uniqueEmail('bob');
    const aliceCtx = await browser.newContext({ viewport: PHONE });
    const a = await aliceCtx.newPage();
    await a.goto(`${origin}/${event.urlName}/tickets`);
    await a.getByTestId('waitlist-open-General Admission').click();
    await a.getByTestId('waitlist-email-General Admission').fill(alice);
    await a.getByTestId('waitlist-quantity-General Admission').selectOption('1');
    await shoot(a, 'join-form');
    await a.getByTestId('waitlist-submit-General Admission').click();
    await expect(a.getByTestId('waitlist-joined-General Admission')).toContainText('You are number 1 in line.');
    await shoot(a, 'joined');
    // Joining twice is refused with its own message, nothing written.
    const again = await browser.newContext({ viewport: PHONE });
    const dup = await again.newPage();
    await dup.goto(`${origin}/${event.urlName}/tickets`);
    await dup.getByTestId('waitlist-open-General Admission').click();
    await dup.getByTestId('waitlist-email-General Admission').fill(alice);
    await dup.getByTestId('waitlist-submit-General Admission').click();
    await expect(dup.getByTestId('waitlist-form-General Admission')).toContainText('You are already on the waiting list for these tickets.');
    await again.close();

    const bobCtx = await browser.newContext({ viewport: PHONE });
    const b = await bobCtx.newPage();
    await join(b, origin, event.urlName, bob);
    await expect(b.getByTestId('waitlist-joined-General Admission')).toContainText('You are number 2 in line.');

    // A refund frees one ticket: Alice is offered it, Bob is not.
    await post(organiser, `${orders}/${first}/refunds`, { mode: 'full', reason: 'Cannot come' });
    const mail = await waitForMail(admin, alice, offerMail);
    expect(mail.details.subject).toBe(`Tickets are available for ${event.name}`);
    expect((await mailsTo(admin, bob)).filter((m) => offerMail(m.details.subject))).toHaveLength(0);
    const link = new URL(/(https?:\/\/\S+)/.exec(mail.details.text)![1]!);
    expect(link.pathname).toBe(`/${event.urlName}/waitlist/claim`);

    // Nobody else can buy it meanwhile: the menu still says sold out.
    await b.goto(`${origin}/${event.urlName}/tickets`);
    await expect(b.getByTestId('ticket-type-General Admission')).toContainText('Sold out');

    // Alice claims: the checkout holds her ticket, with her address; she pays as usual.
    await a.goto(`${origin}${link.pathname}${link.search}`);
    await expect(a).toHaveURL(new RegExp(`/${event.urlName}/account`));
    await expect(a.getByTestId('hold-timer')).toBeVisible();
    await expect(a.getByTestId('field-email')).toHaveValue(alice);
    await shoot(a, 'claim-checkout');
    // The address is the offer's, not to be changed (read-only); the rest as any buyer fills it.
    await expect(a.getByTestId('field-email')).toHaveAttribute('readonly', '');
    await a.getByTestId('field-firstName').fill('Alice');
    await a.getByTestId('field-lastName').fill('Walker');
    await a.getByTestId('field-phone').pressSequentially('6175550123');
    await a.getByTestId('field-address1').fill('1 Navy Yard');
    await a.getByTestId('field-address2').fill('Building 5');
    await a.getByTestId('field-city').fill('Boston');
    await a.getByTestId('field-state').selectOption('MA');
    await a.getByTestId('field-zipCode').fill('02129');
    await a.getByTestId('place-order').click();
    await payOnGatewayPage(a);
    await expect(a.getByTestId('success-page')).toHaveAttribute('data-status', 'paid', { timeout: 20_000 });

    // The claim link, once used, says so.
    await a.goto(`${origin}${link.pathname}${link.search}`);
    await expect(a.getByTestId('waitlist-claim-problem')).toContainText('This offer has already been used.');
    await shoot(a, 'claim-used');

    // Bob still has nothing; the next ticket that comes back is his.
    expect((await mailsTo(admin, bob)).filter((m) => offerMail(m.details.subject))).toHaveLength(0);
    await post(organiser, `${orders}/${second}/refunds`, { mode: 'full', reason: 'Cannot come' });
    await waitForMail(admin, bob, offerMail);

    // The organiser's list, on a phone and a desktop.
    const console = await browser.newContext({ viewport: PHONE });
    const o = await console.newPage();
    await logInToConsole(o, origin, ORGANISER.email, ORGANISER.password);
    await o.goto(`${origin}/events/${event.eventId}/waitlist`);
    await expect(o.getByTestId(`waitlist-state-${alice}`)).toHaveText('Bought');
    await expect(o.getByTestId(`waitlist-state-${bob}`)).toHaveText('Offered');
    await expect(o.getByTestId('waitlist-count-joined')).toHaveText('2');
    await expect(o.getByTestId('waitlist-count-bought')).toHaveText('1');
    await shoot(o, 'organiser');
    await console.close();
    await aliceCtx.close();
    await bobCtx.close();
  });

  test('a list the organiser turned off is not offered: neither on the server-rendered page nor in the app', async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const origin = tenantOrigin(baseURL);
    const event = await givenEventOnSale(organiser, { prefix: 'Closed List', tickets: [{ name: 'General Admission', description: 'Standing room.', price: 3000, quantity: 1, maxTicketPerOrder: 2 }] });
    const buyer = await browser.newContext({ viewport: PHONE });
    await buy(await buyer.newPage(), origin, event.urlName, uniqueEmail('only'));
    await buyer.close();
    const settings = async (enabled: boolean) => {
      const res = await organiser.ctx.put(`/api/tenants/${organiser.tenantId}/events/${event.eventId}/waitlist/settings`, {
        data: { enabled, offerMinutes: 60 },
        headers: { 'x-csrf-token': organiser.csrf },
      });
      expect(res.ok(), await res.text()).toBeTruthy();
    };

    // On (the default): the sold-out ticket offers the list.
    const ctx = await browser.newContext({ viewport: PHONE });
    const page = await ctx.newPage();
    await page.goto(`${origin}/${event.urlName}/tickets`);
    await expect(page.getByTestId('ticket-type-General Admission')).toContainText('Sold out');
    await expect(page.getByTestId('waitlist-open-General Admission')).toBeVisible();

    // Off: the app's ticket menu shows the ticket as sold out and nothing to join.
    await settings(false);
    await page.goto(`${origin}/${event.urlName}/tickets`);
    await expect(page.getByTestId('ticket-type-General Admission')).toContainText('Sold out');
    await expect(page.getByTestId('waitlist-open-General Admission')).toHaveCount(0);
    await page.screenshot({ path: '/tmp/who-waitlist-off-390.png', fullPage: true });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: '/tmp/who-waitlist-off-1280.png', fullPage: true });

    // The server-rendered page (no script runs) says the same.
    const noScript = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const html = await noScript.newPage();
    await html.goto(`${origin}/${event.urlName}/tickets`);
    await expect(html.getByTestId('ticket-type-General Admission')).toContainText('Sold out');
    await expect(html.getByText('Join the waiting list')).toHaveCount(0);

    // On again: offered again, on both.
    await settings(true);
    await html.goto(`${origin}/${event.urlName}/tickets`);
    await expect(html.getByText('Join the waiting list')).toHaveCount(1);
    await page.setViewportSize(PHONE);
    await page.goto(`${origin}/${event.urlName}/tickets`);
    await expect(page.getByTestId('waitlist-open-General Admission')).toBeVisible();
    await page.screenshot({ path: '/tmp/who-waitlist-on-390.png', fullPage: true });
    await noScript.close();
    await ctx.close();
  });
});
