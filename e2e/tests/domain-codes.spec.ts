import { expect, test, type Page } from '@playwright/test';
import { ADMIN, buy, expectToast, fillContact, givenEventOnSale, logInToConsole, ORGANISER, platformOrigin, signIn, tenantOrigin, type Api } from './support';

// The screens that act on a refusal, by its domain code (issue 22: the web switches on codes, never
// on an HTTP status): PLACE ORDER while the waiting room is on goes into the line
// (WAITING_ROOM_REQUIRED); a message to attendees over the day's limit stays refused in the form
// (MESSAGE_LIMIT_REACHED); a fee change after the platform locked the fees turns the page
// read-only (FEES_LOCKED); the refunds export of an event without refunds says so
// (NOTHING_TO_EXPORT). On a phone (390 px); screenshots at 390 and 1280 px.

const shots = process.env.E2E_SHOTS ?? '/tmp/e2e-domain-codes-shots';
const PHONE = { width: 390, height: 844 };

async function screenshots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(PHONE);
}

async function put(api: Api, path: string, data: unknown) {
  const res = await api.ctx.put(path, { data, headers: { 'x-csrf-token': api.csrf } });
  expect(res.ok(), `PUT ${path}: ${res.status()} ${await res.text()}`).toBeTruthy();
}

test.use({ viewport: PHONE });

test.describe('refusals the web acts on, by their codes', () => {
  let organiser: Api;

  test.beforeAll(async ({ baseURL }) => {
    organiser = await signIn(tenantOrigin(baseURL), ORGANISER);
  });

  test.afterAll(async () => {
    await organiser.ctx.dispose();
  });

  test('PLACE ORDER after the waiting room was switched on takes the buyer into the line', async ({ page, baseURL }) => {
    const origin = tenantOrigin(baseURL);
    const event = await givenEventOnSale(organiser, { prefix: 'Queue Night' });
    await page.goto(`${origin}/${event.urlName}/tickets`);
    await page.getByRole('button', { name: 'Add one General Admission' }).click();
    await page.getByTestId('view-cart').click();
    await page.getByTestId('continue').click();
    await fillContact(page, `queue.${Date.now().toString(36)}@example.com`);
    // The organiser switches the room on while the buyer fills the form; it opens in an hour.
    await put(organiser, `/api/tenants/${organiser.tenantId}/events/${event.eventId}/waiting-room`, {
      enabled: true,
      opensAt: new Date(Date.now() + 3_600_000).toISOString(),
      admitPerMinute: 60,
    });
    await page.getByTestId('place-order').click();
    await expect(page).toHaveURL(new RegExp(`/${event.urlName}/line\\?next=account$`));
    await expect(page.getByTestId('waiting-room')).toBeVisible();
    await expect(page.getByTestId('waiting-room-position')).toBeVisible();
    await screenshots(page, 'waiting-room-from-checkout');
  });

  test("a message over the day's limit stays refused in the form", async ({ page, baseURL }) => {
    test.setTimeout(150_000);
    const origin = tenantOrigin(baseURL);
    const event = await givenEventOnSale(organiser, { prefix: 'Chatty Night' });
    await buy(page, origin, event.urlName, `chatty.${Date.now().toString(36)}@example.com`);
    // The day's ten messages, each sent before the next (one at a time), once the buyer's tickets count.
    const messages = `/api/tenants/${organiser.tenantId}/events/${event.eventId}/messages`;
    await expect
      .poll(async () => {
        const res = await organiser.ctx.post(`${messages}/audience`, { data: { details: { recipients: 'all' } }, headers: { 'x-csrf-token': organiser.csrf } });
        return ((await res.json()) as { recipients?: number }).recipients;
      })
      .toBe(1);
    for (let i = 1; i <= 10; i++) {
      const res = await organiser.ctx.post(messages, {
        data: { details: { subject: `Note ${i}`, body: `<p>Note ${i}.</p>`, recipients: 'all', marketing: false } },
        headers: { 'x-csrf-token': organiser.csrf },
      });
      expect(res.status(), await res.text()).toBe(201);
      const { id } = (await res.json()) as { id: string };
      await expect
        .poll(async () => ((await (await organiser.ctx.get(`${messages}/${id}`)).json()) as { details: { status: string } }).details.status, { timeout: 20_000 })
        .toBe('done');
    }

    await logInToConsole(page, origin, ORGANISER.email, ORGANISER.password);
    await page.goto(`${origin}/events/${event.eventId}/messages`);
    await page.getByTestId('message-subject').fill('One more thing');
    await page.getByRole('textbox', { name: 'Message' }).click();
    await page.keyboard.type('Doors open at seven.');
    await expect(page.getByTestId('message-audience')).toContainText('Goes to 1 address.');
    await page.getByTestId('send-message').click();
    await page.getByTestId('confirm-send').click();
    await expectToast(page, 'The message was not sent');
    await expect(page.getByTestId('message-refused')).toContainText('You can send at most 10 messages to this event’s attendees in 24 hours.');
    // The form keeps what was written, to send later.
    await expect(page.getByTestId('message-subject')).toHaveValue('One more thing');
    await screenshots(page, 'message-limit');
  });

  test('a fee change after the platform locked the fees turns the page read-only', async ({ page, baseURL }) => {
    const admin = await signIn(platformOrigin(baseURL), ADMIN);
    const setting = `/api/tenants/${organiser.tenantId}/setting`;
    const current = (await (await admin.ctx.get(setting)).json()) as Record<string, unknown>;
    const { ownerId: _owner, defaultSurchargeRule: _default, ...editable } = current;
    await put(admin, setting, { ...editable, isTenantSettingsControlEnabled: true });
    try {
      await logInToConsole(page, tenantOrigin(baseURL), ORGANISER.email, ORGANISER.password);
      await page.goto(`${tenantOrigin(baseURL)}/fees`);
      const form = page.getByRole('form', { name: 'Fee settings' });
      const roundUp = form.getByLabel('Round service fees up to');
      await expect(roundUp).toBeEditable();
      // The platform takes the right back while the page is open.
      await put(admin, setting, { ...editable, isTenantSettingsControlEnabled: false });
      await roundUp.fill('0.05');
      await form.getByRole('button', { name: 'Save settings' }).click();
      await expectToast(page, 'Updating Fees Settings Failed', 'The platform has not allowed this tenant to edit its fees settings.');
      await expect(page.getByText('Your fees are managed by Marquee.')).toBeVisible();
      await expect(form.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
      await screenshots(page, 'fees-locked');
    } finally {
      await put(admin, setting, { ...editable, isTenantSettingsControlEnabled: current.isTenantSettingsControlEnabled });
      await admin.ctx.dispose();
    }
  });

  test('the refunds export of an event without refunds says there is nothing to export', async ({ page, baseURL }) => {
    const origin = tenantOrigin(baseURL);
    const event = await givenEventOnSale(organiser, { prefix: 'Quiet Night' });
    await logInToConsole(page, origin, ORGANISER.email, ORGANISER.password);
    await page.goto(`${origin}/reports/sales/event/${event.eventId}/refunds`);
    await page.getByRole('button', { name: 'Export to CSV' }).click();
    await expectToast(page, 'Refunds Export Failed', 'Event does not have refunds to export.');
    await screenshots(page, 'refunds-export-empty');
  });
});
