import { deflateSync } from 'node:zlib';
import { expect, request as playwrightRequest, type APIRequestContext, type Browser, type Page } from '@playwright/test';

export const ADMIN = { email: 'admin@marquee.test', password: 'Marquee-Admin-1' };

/** A unique address per run, so the tests can run twice against one database. */
export const uniqueEmail = (name: string) => `${name}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG (a solid square in the given colour), made here so the test needs no fixture file. */
export function makePng(size = 32, [r, g, b] = [91, 60, 196]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3).map((_, i) => [r, g, b][i % 3]!)]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** A toast with this title (and message, when given) is on screen. */
export async function expectToast(page: Page, title: string, message?: string) {
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: title });
  await expect(toast.first()).toBeVisible();
  if (message) await expect(toast.filter({ hasText: message }).first()).toBeVisible();
}

/**
 * The platform admin, in a browser context of their own, opens the latest message to `to` on the
 * Outbox page (the latest whose subject contains `subject`, when given) and returns the first link
 * in it whose path is `path` (or matches it).
 */
export async function linkFromOutbox(browser: Browser, baseURL: string, to: string, path: string | RegExp, subject?: string): Promise<URL> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  try {
    await logIn(page, ADMIN.email, ADMIN.password);
    await expect(page.getByTestId('console-nav')).toBeVisible();
    await page.getByTestId('console-nav').getByRole('link', { name: 'Outbox' }).click();
    await expect(page.getByRole('heading', { name: 'Outbox' })).toBeVisible();
    await page.getByPlaceholder('Search by recipient').fill(to);
    // The search applies after the 1600 ms debounce: wait until the table shows only that address.
    // Newest first, so the first row is the latest message.
    const table = page.getByRole('table', { name: 'Outbox messages' });
    await expect(table.locator('tbody tr').first()).toContainText(to);
    await expect(table.locator('tbody tr').filter({ hasNotText: to })).toHaveCount(0);
    const rows = subject ? table.locator('tbody tr').filter({ hasText: subject }) : table.locator('tbody tr');
    await rows.first().getByRole('button', { name: `View message to ${to}` }).click();
    const text = page.getByTestId('mail-text');
    await expect(text).toBeVisible();
    const hrefs = await text.getByRole('link').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    const link = hrefs.map((h) => new URL(h)).find((u) => (typeof path === 'string' ? u.pathname === path : path.test(u.pathname)));
    expect(link, `a ${path} link in the mail to ${to}`).toBeDefined();
    return link!;
  } finally {
    await context.close();
  }
}

/** The demo organiser: the demo tenant acme's admin. */
export const ORGANISER = { email: 'organiser@acme.test', password: 'Marquee-Admin-1' };

/** The platform console's origin on the server under test. */
export function platformOrigin(baseURL: string | undefined): string {
  return new URL(baseURL ?? process.env.E2E_BASE_URL ?? 'http://localhost:3000').origin;
}

/** The demo tenant's host on the server under test: acme.{platform host}:{port}. */
export function tenantOrigin(baseURL: string | undefined): string {
  const base = new URL(platformOrigin(baseURL));
  return `${base.protocol}//acme.${base.hostname}${base.port ? `:${base.port}` : ''}`;
}

/** Logs in on that origin's console and waits for its navigation. */
export async function logInToConsole(page: Page, origin: string, email: string, password = ADMIN.password) {
  await page.goto(`${origin}/login`);
  await page.getByLabel('Email').fill(email);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('console-nav')).toBeVisible();
}

/** The host of the tenant whose URL name is `url` on the server under test: {url}.{platform host}:{port}. */
export function originOf(baseURL: string | undefined, url: string): string {
  const base = new URL(platformOrigin(baseURL));
  return `${base.protocol}//${url}.${base.hostname}${base.port ? `:${base.port}` : ''}`;
}

// ---- The API, as the tests use it to set the scene ------------------------------------------------

/** A signed-in API client: its CSRF token and the tenant of the host it signed in on ('' on the platform). */
export type Api = { ctx: APIRequestContext; csrf: string; tenantId: string };

/**
 * An API client for a host. Browsers resolve *.localhost to this machine; Node does not, so such
 * hosts are reached on the loopback address with the tenant's Host header.
 */
export async function apiContext(origin: string): Promise<APIRequestContext> {
  const url = new URL(origin);
  if (url.hostname !== 'localhost' && !url.hostname.endsWith('.localhost')) return playwrightRequest.newContext({ baseURL: origin });
  return playwrightRequest.newContext({ baseURL: `${url.protocol}//127.0.0.1${url.port ? `:${url.port}` : ''}`, extraHTTPHeaders: { host: url.host } });
}

export async function signIn(origin: string, who: { email: string; password: string }): Promise<Api> {
  const ctx = await apiContext(origin);
  const res = await ctx.post('/api/auth/login', { data: { username: who.email, password: who.password } });
  expect(res.status(), await res.text()).toBe(200);
  const session = (await res.json()) as { csrfToken: string };
  const site = (await (await ctx.get('/api/site/context')).json()) as { tenant: { id: string } | null };
  return { ctx, csrf: session.csrfToken, tenantId: site.tenant?.id ?? '' };
}

/** A write in the spec's wire shape ({details}); expects success and returns the answer. */
export async function send<T>(api: Api, path: string, details?: unknown, method: 'POST' | 'PATCH' = 'POST'): Promise<T> {
  const res = await api.ctx.fetch(path, { method, data: details === undefined ? {} : { details }, headers: { 'x-csrf-token': api.csrf } });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}

export type TicketSpec = { name: string; description: string; price: number; quantity: number; maxTicketPerOrder?: number };
export type OnSale = { eventId: string; urlName: string; name: string; ticketTypeIds: Record<string, string> };

/**
 * An event on sale on the organiser's tenant (one $40 General Admission unless `tickets` says
 * otherwise), named `name` or `{prefix} {unique suffix}`, with an optional 10% code, seat map and charity.
 */
export async function givenEventOnSale(
  organiser: Api,
  opts: {
    name?: string;
    prefix?: string;
    tickets?: TicketSpec[];
    covidSafety?: boolean;
    discountCode?: string;
    seatMap?: Buffer;
    charityId?: string | null;
    capacity?: number;
  } = {},
): Promise<OnSale> {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const name = opts.name ?? `${opts.prefix ?? 'Harbour Lights'} ${suffix}`;
  const urlName = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const base = `/api/tenants/${organiser.tenantId}/events`;
  const event = await send<{ id: string }>(organiser, base, {
    name,
    urlName,
    startDateTime: '2031-09-12T20:00:00-04:00',
    timeZone: 'America/New_York',
    venueName: 'Harbour Hall',
    address1: '12 Pier Road',
    city: 'Boston',
    state: 'MA',
    zip: '02110',
    country: 'USA',
    description: 'An evening by the water.',
    covidSafety: opts.covidSafety ?? false,
    covidSafetyText: 'Masks are welcome. Please stay home if you feel unwell.',
    emailDeliveryVerbiage: 'Show the attached tickets at the door.',
    charityId: opts.charityId ?? null,
    ...(opts.capacity === undefined ? {} : { capacity: opts.capacity }),
  });
  const tickets = opts.tickets ?? [{ name: 'General Admission', description: 'Standing room.', price: 4000, quantity: 100 }];
  const ticketTypeIds: Record<string, string> = {};
  for (const [i, { description, ...t }] of tickets.entries()) {
    const created = await send<{ id: string }>(organiser, `${base}/${event.id}/ticket-types`, { ...t, details: description, sortOrder: i });
    ticketTypeIds[t.name] = created.id;
  }
  if (opts.discountCode) await send(organiser, `${base}/${event.id}/discount-codes`, { code: opts.discountCode, kind: 'percent', value: 10 });
  if (opts.seatMap) {
    const res = await organiser.ctx.post(`${base}/${event.id}/seatmap`, {
      multipart: { file: { name: 'seatmap.png', mimeType: 'image/png', buffer: opts.seatMap } },
      headers: { 'x-csrf-token': organiser.csrf },
    });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
  await send(organiser, `${base}/${event.id}/publish`);
  return { eventId: event.id, urlName, name, ticketTypeIds };
}

// ---- Buying, as a buyer does it in the browser ----------------------------------------------------

/** The test gateway's card that pays. */
export const PAY_CARD = '4242 4242 4242 4242';

/** The checkout's contact form, filled as a US buyer would. */
export async function fillContact(page: Page, email: string, who: { firstName: string; lastName: string } = { firstName: 'Grace', lastName: 'Hopper' }) {
  await page.getByTestId('field-email').fill(email);
  await page.getByTestId('field-firstName').fill(who.firstName);
  await page.getByTestId('field-lastName').fill(who.lastName);
  await page.getByTestId('field-phone').pressSequentially('6175550123');
  await expect(page.getByTestId('field-phone')).toHaveValue('+1 (617) 555 0123');
  await page.getByTestId('field-address1').fill('1 Navy Yard');
  await page.getByTestId('field-address2').fill('Building 5');
  await page.getByTestId('field-city').fill('Boston');
  await page.getByTestId('field-state').selectOption('MA');
  await page.getByTestId('field-zipCode').fill('02129');
}

/** The test gateway's page: pays with `card`. */
export async function payOnGatewayPage(page: Page, card = PAY_CARD) {
  await expect(page).toHaveURL(/\/pay\//);
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
}

/**
 * A buyer gets `count` tickets of `ticket` through the attendee site and the test gateway; returns
 * the order id. `beforePlacing` runs on the checkout page after the contact form (a donation, say).
 */
export async function buy(
  page: Page,
  origin: string,
  urlName: string,
  email: string,
  opts: { ticket?: string; count?: number; who?: { firstName: string; lastName: string }; beforePlacing?: (page: Page) => Promise<void> } = {},
): Promise<string> {
  await page.goto(`${origin}/${urlName}/tickets`);
  for (let i = 0; i < (opts.count ?? 1); i++) await page.getByRole('button', { name: `Add one ${opts.ticket ?? 'General Admission'}` }).click();
  await page.getByTestId('view-cart').click();
  await page.getByTestId('continue').click();
  await fillContact(page, email, opts.who);
  await opts.beforePlacing?.(page);
  await page.getByTestId('place-order').click();
  await payOnGatewayPage(page);
  await expect(page.getByTestId('success-page')).toHaveAttribute('data-status', 'paid', { timeout: 20_000 });
  return new URL(page.url()).searchParams.get('orderID')!;
}

// ---- The mail outbox, through the platform's API ----------------------------------------------------

export type Mail = { details: { to: string; subject: string; text: string; attachments: Array<{ filename: string; url: string }> } };

/** The messages to `to` in the platform's outbox, newest first (`admin` signed in on the platform). */
export async function mailsTo(admin: Api, to: string): Promise<Mail[]> {
  const res = await admin.ctx.get('/api/platform/outbox', { params: { filters: `details.to=${to}`, limit: 50 } });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { result: Mail[] }).result;
}

/** Waits for a message to `to` whose subject passes `subject` and returns it. */
export async function waitForMail(admin: Api, to: string, subject: (s: string) => boolean): Promise<Mail> {
  let mail: Mail | undefined;
  await expect.poll(async () => ((mail = (await mailsTo(admin, to)).find((m) => subject(m.details.subject))) ? 1 : 0), { timeout: 30_000 }).toBe(1);
  return mail!;
}

/** A write whose body is not in the {details} shape (actions, invites); expects success. */
export async function post<T>(api: Api, path: string, data: unknown = {}): Promise<T> {
  const res = await api.ctx.post(path, { data, headers: { 'x-csrf-token': api.csrf } });
  expect(res.ok(), `POST ${path}: ${res.status()} ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}

/** A new tenant created by the operator (`admin` signed in on the platform); its id. */
export async function givenTenant(admin: Api, name: string, url: string): Promise<string> {
  const tenant = await send<{ id: string }>(admin, '/api/tenants', {
    name,
    email: `box-office@${url}.test`,
    phone: '+1 (312) 555 0142',
    inviteTemplateSubject: `Join ${name}`,
    inviteTemplateBody: `You have been invited to help run ${name}.`,
    url,
  });
  return tenant.id;
}

/**
 * A volunteer who signs up (in `page`, on the tenant's host), verifies their address, and accepts the
 * organiser's invite to work on the event with `roles` (the check-in role unless told); their e-mail.
 */
export async function givenEventVolunteer(
  browser: Browser,
  page: Page,
  baseURL: string,
  organiser: Api,
  eventId: string,
  opts: { password: string; firstName?: string; lastName?: string; roles?: string[] },
): Promise<string> {
  const acme = tenantOrigin(baseURL);
  const volunteer = uniqueEmail('door');
  await page.goto(`${acme}/login`);
  const status = await page.evaluate(
    async (body) => (await fetch('/api/auth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
    { username: volunteer, password: opts.password, password2: opts.password, firstName: opts.firstName ?? 'Dora', lastName: opts.lastName ?? 'Door', appType: 'ATTENDEE' },
  );
  expect(status).toBe(201);
  await page.goto((await linkFromOutbox(browser, baseURL, volunteer, '/verify')).href);
  await expect(page.getByTestId('verified-note')).toBeVisible();
  await post(organiser, `/api/tenants/${organiser.tenantId}/events/${eventId}/staff/invites`, { email: volunteer, roles: opts.roles ?? ['event_checkin'] });
  await page.goto((await linkFromOutbox(browser, baseURL, volunteer, '/accept-invite')).href);
  await page.getByLabel('Password').fill(opts.password);
  await page.getByRole('button', { name: 'CONFIRM' }).click();
  await expect(page.getByTestId('accept-invite-success')).toContainText('Congratulations');
  return volunteer;
}
