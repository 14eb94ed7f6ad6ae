import AxeBuilder from '@axe-core/playwright';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, linkFromOutbox, logInToConsole, ORGANISER, platformOrigin, tenantOrigin } from './support';

// Messages to attendees (issue 15): a buyer buys; the organiser writes to the event's attendees
// from the event's Messages tab, sees how many addresses it goes to and the job's progress; the
// mail is in the outbox with its unsubscribe link; following it (in another browser) unsubscribes,
// and the next count says so. Screenshots at 390 and 1280 px go to the output directory.

const shots = process.env.E2E_SHOTS ?? '/tmp/e2e-mailout-shots';

type Api = { ctx: APIRequestContext; csrf: string; tenantId: string | null };

async function apiContext(origin: string): Promise<APIRequestContext> {
  const url = new URL(origin);
  if (url.hostname !== 'localhost' && !url.hostname.endsWith('.localhost')) return playwrightRequest.newContext({ baseURL: origin });
  return playwrightRequest.newContext({ baseURL: `${url.protocol}//127.0.0.1${url.port ? `:${url.port}` : ''}`, extraHTTPHeaders: { host: url.host } });
}

async function signIn(origin: string, who: { email: string; password: string }): Promise<Api> {
  const ctx = await apiContext(origin);
  const res = await ctx.post('/api/auth/login', { data: { username: who.email, password: who.password } });
  expect(res.status(), await res.text()).toBe(200);
  const session = (await res.json()) as { csrfToken: string };
  const site = (await (await ctx.get('/api/site/context')).json()) as { tenant: { id: string } | null };
  return { ctx, csrf: session.csrfToken, tenantId: site.tenant?.id ?? null };
}

async function send<T>(api: Api, path: string, details: unknown): Promise<T> {
  const res = await api.ctx.fetch(path, { method: 'POST', data: details === undefined ? {} : { details }, headers: { 'x-csrf-token': api.csrf } });
  expect(res.ok(), `POST ${path}: ${res.status()} ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}

async function givenEventOnSale(organiser: Api) {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const name = `Lantern Walk ${suffix}`;
  const urlName = `lantern-walk-${suffix}`;
  const base = `/api/tenants/${organiser.tenantId}/events`;
  const event = await send<{ id: string }>(organiser, base, {
    name,
    urlName,
    startDateTime: '2031-10-03T19:30:00-04:00',
    timeZone: 'America/New_York',
    venueName: 'Old Mill Park',
    address1: '4 Mill Lane',
    city: 'Salem',
    state: 'MA',
    zip: '01970',
    country: 'USA',
    description: 'Lanterns along the river.',
    covidSafety: false,
    covidSafetyText: '',
    emailDeliveryVerbiage: 'Show the attached tickets at the gate.',
    charityId: null,
  });
  await send(organiser, `${base}/${event.id}/ticket-types`, { name: 'Walker', details: 'Entry and a lantern.', price: 1500, quantity: 100, sortOrder: 0 });
  await send(organiser, `${base}/${event.id}/ticket-types`, { name: 'Family', details: 'Two adults, two children.', price: 4500, quantity: 30, sortOrder: 1 });
  await send(organiser, `${base}/${event.id}/publish`, undefined);
  return { id: event.id, name, urlName };
}

async function buy(page: Page, origin: string, urlName: string, email: string) {
  await page.goto(`${origin}/${urlName}/tickets`);
  await page.getByRole('button', { name: 'Add one Walker' }).click();
  await page.getByTestId('view-cart').click();
  await page.getByTestId('continue').click();
  await page.getByTestId('field-email').fill(email);
  await page.getByTestId('field-firstName').fill('Mary');
  await page.getByTestId('field-lastName').fill('Shelley');
  await page.getByTestId('field-phone').pressSequentially('6175550188');
  await page.getByTestId('field-address1').fill('3 Chestnut St');
  await page.getByTestId('field-address2').fill('Apt 2');
  await page.getByTestId('field-city').fill('Salem');
  await page.getByTestId('field-state').selectOption('MA');
  await page.getByTestId('field-zipCode').fill('01970');
  await page.getByTestId('place-order').click();
  await expect(page).toHaveURL(/\/pay\//);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByTestId('success-page')).toHaveAttribute('data-status', 'paid', { timeout: 20_000 });
}

async function screenshots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
  }
}

/** WCAG 2.2 AA, as the accessibility suite checks every page. */
async function expectNoAxeViolations(page: Page, label: string) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze();
  expect(result.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`)).toEqual([]);
}

type Mail = { details: { to: string; subject: string; text: string } };

test('an organiser e-mails the attendees; the mail carries an unsubscribe link that works without signing in', async ({ page, browser, baseURL }) => {
  const origin = tenantOrigin(baseURL);
  const organiser = await signIn(origin, ORGANISER);
  const admin = await signIn(platformOrigin(baseURL), ADMIN);
  const event = await givenEventOnSale(organiser);
  const email = `lantern.${Date.now().toString(36)}@example.com`;

  await buy(page, origin, event.urlName, email);

  // The organiser writes from the event's Messages tab.
  await logInToConsole(page, origin, ORGANISER.email, ORGANISER.password);
  await page.goto(`${origin}/events/${event.id}`);
  await page.getByRole('tab', { name: 'Messages' }).click();
  await expect(page).toHaveURL(new RegExp(`/events/${event.id}/messages$`));
  await expect(page.getByRole('heading', { name: 'E-mail attendees' })).toBeVisible();
  await expect(page.getByText('No messages sent yet')).toBeVisible();
  const subject = `Bring a warm coat ${Date.now().toString(36)}`;
  await page.getByTestId('message-subject').fill(subject);
  await page.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type('The walk starts at the mill gate. Bring a warm coat: it gets cold by the river.');
  await expect(page.getByTestId('message-audience')).toContainText('Goes to 1 address.');

  // By ticket type: nobody holds a Family ticket yet.
  await page.getByTestId('recipients-types').click();
  await expect(page.getByTestId('message-audience')).toContainText('Choose at least one ticket type');
  await page.getByRole('textbox', { name: 'Ticket types' }).click();
  await page.getByRole('option', { name: 'Family' }).click();
  await expect(page.getByTestId('message-audience')).toContainText('Nobody would receive this message.');
  await expect(page.getByTestId('send-message')).toBeDisabled();
  await page.getByRole('option', { name: 'Walker' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('message-audience')).toContainText('Goes to 1 address.');
  await expectNoAxeViolations(page, 'compose');
  await screenshots(page, 'compose');
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByTestId('send-message').click();
  await page.getByTestId('confirm-send').click();
  const row = page.getByRole('table', { name: 'Sent messages' }).locator('tbody tr').filter({ hasText: subject });
  await expect(row).toContainText('Sent', { timeout: 20_000 });
  await expect(row).toContainText('to 1 address');
  await expect(row).toContainText('Walker, Family');
  await expect(page.getByTestId('message-subject')).toHaveValue('');
  // The toast (shared, not this page's) closes by itself first.
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
  await expectNoAxeViolations(page, 'history');
  await screenshots(page, 'history');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The mail is in the outbox, with the unsubscribe link (the platform console's Outbox shows it).
  let mail: Mail | undefined;
  await expect
    .poll(async () => {
      const res = await admin.ctx.get('/api/platform/outbox', { params: { filters: `details.to=${email}`, limit: 50 } });
      mail = ((await res.json()) as { result: Mail[] }).result.find((m) => m.details.subject === subject);
      return !!mail;
    })
    .toBe(true);
  expect(mail!.details.text).toContain('The walk starts at the mill gate.');
  const path = /\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/.exec(mail!.details.text)?.[0];
  expect(path, mail!.details.text).toBeDefined();
  const link = await linkFromOutbox(browser, platformOrigin(baseURL), email, path!);
  expect(link.origin).toBe(origin);

  // Following it, in a browser that never signed in, unsubscribes.
  const context = await browser.newContext();
  const attendee = await context.newPage();
  await attendee.goto(link.href);
  await expect(attendee.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible();
  await expect(attendee.getByTestId('unsubscribe-page')).toContainText(email);
  await expectNoAxeViolations(attendee, 'unsubscribe');
  await screenshots(attendee, 'unsubscribe');
  await attendee.getByTestId('unsubscribe').click();
  await expect(attendee.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  await expect(attendee.getByTestId('unsubscribe-done')).toContainText('You will no longer receive messages from this organiser.');
  await expectNoAxeViolations(attendee, 'unsubscribed');
  await screenshots(attendee, 'unsubscribed');
  // A tampered link is refused.
  await attendee.goto(`${link.href.slice(0, -3)}xyz`);
  await expect(attendee.getByTestId('unsubscribe-invalid')).toBeVisible();
  await context.close();

  // The organiser's next count leaves the address out and says so.
  await page.reload();
  await page.getByTestId('message-subject').fill('Second note');
  await expect(page.getByTestId('message-audience')).toContainText('Nobody would receive this message.');
  await expect(page.getByTestId('message-audience')).toContainText('1 address has unsubscribed');

  await organiser.ctx.dispose();
  await admin.ctx.dispose();
});

test('check-in staff get no Messages tab (the server refuses them the history); the event’s manager does', async ({ browser, baseURL }) => {
  const origin = tenantOrigin(baseURL);
  const organiser = await signIn(origin, ORGANISER);
  const event = await givenEventOnSale(organiser);
  const password = 'Front-door-7!';
  for (const [role, hasTab] of [
    ['event_checkin', false],
    ['event_manager', true],
  ] as const) {
    const email = `${role.replace('_', '.')}.${Date.now().toString(36)}@example.com`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${origin}/login`);
    const status = await page.evaluate(
      async (body) => (await fetch('/api/auth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
      { username: email, password, password2: password, firstName: 'Dora', lastName: 'Door', appType: 'ATTENDEE' },
    );
    expect(status).toBe(201);
    await page.goto((await linkFromOutbox(browser, baseURL!, email, '/verify')).href);
    await expect(page.getByTestId('verified-note')).toBeVisible();
    const invite = await organiser.ctx.post(`/api/tenants/${organiser.tenantId}/events/${event.id}/staff/invites`, { data: { email, roles: [role] }, headers: { 'x-csrf-token': organiser.csrf } });
    expect(invite.status(), await invite.text()).toBeLessThan(300);
    await page.goto((await linkFromOutbox(browser, baseURL!, email, '/accept-invite')).href);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'CONFIRM' }).click();
    await expect(page.getByTestId('accept-invite-success')).toContainText('Congratulations');

    await logInToConsole(page, origin, email, password);
    await page.goto(`${origin}/events/${event.id}`);
    await expect(page.getByTestId('event-title')).toHaveText(event.name);
    await expect(page.getByRole('tab', { name: 'Details' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Messages' })).toHaveCount(hasTab ? 1 : 0);
    // Typed straight in, the address opens the details instead of a panel that could only fail.
    await page.goto(`${origin}/events/${event.id}/messages`);
    await expect(page.getByTestId('event-title')).toHaveText(event.name);
    await expect(page.getByRole('heading', { name: 'E-mail attendees' })).toHaveCount(hasTab ? 1 : 0);
    if (!hasTab) {
      await expect(page.getByRole('tab', { name: 'Details' })).toHaveAttribute('aria-selected', 'true');
      await page.screenshot({ path: `${shots}/checkin-staff-event-1280.png`, fullPage: true });
    }
    await context.close();
  }
  await organiser.ctx.dispose();
});
