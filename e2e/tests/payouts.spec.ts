import { readFile } from 'node:fs/promises';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, expectToast, logInToConsole, ORGANISER, platformOrigin, tenantOrigin } from './support';

// Payouts (issue 9, spec reports-payouts-checkout §2 Payouts, §4, §5, §8): an attendee pays; the
// operator sees the order Ready For Payout (PAYOUT_DELAY_DAYS=0 on the test server), holds and
// releases it, transfers it while the tenant has no connected account (failed, with the hint),
// connects the account and transfers again, opens the completed payout and exports its CSV; the
// organiser sees the same payout in the tenant console.

type Api = { ctx: APIRequestContext; csrf: string; tenantId: string };

async function apiContext(origin: string): Promise<APIRequestContext> {
  const url = new URL(origin);
  return playwrightRequest.newContext({ baseURL: `${url.protocol}//127.0.0.1${url.port ? `:${url.port}` : ''}`, extraHTTPHeaders: { host: url.host } });
}

async function signIn(origin: string, who: { email: string; password: string }): Promise<Api> {
  const ctx = await apiContext(origin);
  const res = await ctx.post('/api/auth/login', { data: { username: who.email, password: who.password } });
  expect(res.status(), await res.text()).toBe(200);
  const session = (await res.json()) as { csrfToken: string };
  const site = (await (await ctx.get('/api/site/context')).json()) as { tenant: { id: string } | null };
  return { ctx, csrf: session.csrfToken, tenantId: site.tenant?.id ?? '' };
}

async function post<T>(api: Api, path: string, data: unknown): Promise<T> {
  const res = await api.ctx.post(path, { data, headers: { 'x-csrf-token': api.csrf } });
  expect(res.ok(), `POST ${path}: ${res.status()} ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}

async function givenEventOnSale(organiser: Api) {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const urlName = `payout-night-${suffix}`;
  const base = `/api/tenants/${organiser.tenantId}/events`;
  const event = await post<{ id: string }>(organiser, base, {
    details: {
      name: `Payout Night ${suffix}`,
      urlName,
      startDateTime: '2031-10-03T20:00:00-04:00',
      timeZone: 'America/New_York',
      venueName: 'Harbour Hall',
      address1: '12 Pier Road',
      city: 'Boston',
      state: 'MA',
      zip: '02110',
      country: 'USA',
      description: 'A night for the payout tests.',
      covidSafety: false,
      emailDeliveryVerbiage: 'Show the attached tickets at the door.',
    },
  });
  await post(organiser, `${base}/${event.id}/ticket-types`, { details: { name: 'General Admission', details: 'Standing room.', price: 4000, quantity: 100, sortOrder: 0 } });
  await post(organiser, `${base}/${event.id}/publish`, {});
  return { eventId: event.id, urlName };
}

async function buyOneTicket(page: Page, origin: string, urlName: string, email: string): Promise<string> {
  await page.goto(`${origin}/${urlName}/tickets`);
  await page.getByRole('button', { name: 'Add one General Admission' }).click();
  await page.getByTestId('view-cart').click();
  await page.getByTestId('continue').click();
  await page.getByTestId('field-email').fill(email);
  await page.getByTestId('field-firstName').fill('Ada');
  await page.getByTestId('field-lastName').fill('Lovelace');
  await page.getByTestId('field-phone').pressSequentially('6175550188');
  await page.getByTestId('field-address1').fill('1 Navy Yard');
  await page.getByTestId('field-address2').fill('Building 5');
  await page.getByTestId('field-city').fill('Boston');
  await page.getByTestId('field-state').selectOption('MA');
  await page.getByTestId('field-zipCode').fill('02129');
  await page.getByTestId('place-order').click();
  await expect(page).toHaveURL(/\/pay\//);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByTestId('success-page')).toHaveAttribute('data-status', 'paid', { timeout: 20_000 });
  return new URL(page.url()).searchParams.get('orderID')!;
}

test('an operator holds, releases and transfers a paid order; the tenant sees the payout', async ({ browser, page, baseURL }) => {
  test.setTimeout(180_000);
  const tenant = tenantOrigin(baseURL);
  const platform = platformOrigin(baseURL);
  const organiser = await signIn(tenant, ORGANISER);
  const event = await givenEventOnSale(organiser);
  const tenantId = organiser.tenantId;
  await organiser.ctx.dispose();
  const orderUID = await buyOneTicket(page, tenant, event.urlName, `payout.buyer.${Date.now().toString(36)}@example.com`);

  // The tenant has no connected account yet.
  const admin = await signIn(platform, ADMIN);
  await post(admin, '/api/payment/payout-update', { tenantId, payment: { type: 'platform', id: null } });

  const op = await browser.newPage();
  await logInToConsole(op, platform, ADMIN.email, ADMIN.password);
  await op.goto(`${platform}/reports/payouts/pending`);
  await op.getByPlaceholder('Search by Order ID').fill(orderUID);
  const table = op.getByRole('table', { name: 'Pending payouts' });
  const row = table.getByRole('row', { name: new RegExp(orderUID) });
  await expect(row).toHaveCount(1);
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(row).toContainText('Ready For Payout');
  await expect(row).toContainText('Manual');

  // Hold: the row is tinted and cannot be selected; then release.
  await row.getByRole('button', { name: 'Hold' }).click();
  await op.getByLabel('Message').fill('Checking the venue invoice');
  await op.getByRole('dialog').getByRole('button', { name: 'Hold' }).click();
  await expectToast(op, 'Payout Held', `Payout for order: ${orderUID} has been held`);
  await expect(row.getByRole('button', { name: 'Release' })).toBeVisible();
  await expect(row.getByRole('checkbox')).toBeDisabled();
  await row.getByRole('button', { name: 'Release' }).click();
  await op.getByRole('dialog').getByRole('button', { name: 'Release' }).click();
  await expectToast(op, 'Payout Released', `Payout for order: ${orderUID} has been released`);
  await expect(row.getByRole('checkbox')).toBeEnabled();

  // No order selected.
  await op.getByRole('button', { name: /^Transfer/ }).click();
  await expectToast(op, 'No Order Selected', 'Please select at least one order to transfer payout');

  // Without an account the transfer fails with the hint, and the order stays pending.
  await row.getByRole('checkbox').check();
  await op.getByRole('button', { name: /^Transfer/ }).click();
  await expectToast(op, 'Error', 'Please contact the tenant owner to setup stripe account.');
  await expect(row).toContainText('Last transfer failed');

  // With the account it is paid.
  await post(admin, '/api/payment/payout-update', { tenantId, payment: { type: 'platform', id: 'acct_e2e_acme' } });
  await expect(row.getByRole('checkbox')).toBeEnabled();
  await row.getByRole('checkbox').check();
  await op.getByRole('button', { name: /^Transfer/ }).click();
  const results = op.getByRole('dialog', { name: 'Payout results' });
  await expect(results).toContainText('Completed');
  await expect(results).toContainText(orderUID);
  await results.getByRole('button', { name: 'Close' }).click();
  await expect(row).toHaveCount(0, { timeout: 10_000 });

  // The completed payout, its detail and CSV.
  await op.goto(`${platform}/reports/payouts/completed`);
  // Newest first: the payout just made.
  const completed = op.getByRole('table', { name: 'Completed payouts' });
  await completed.locator('tbody tr').first().click();
  await expect(op).toHaveURL(/\/reports\/payouts\/completed\/[0-9a-f-]+\?tenant_id=/);
  const payoutId = /completed\/([0-9a-f-]+)/.exec(op.url())![1]!;
  await expect(op.getByRole('table', { name: 'Payout orders' })).toContainText(orderUID);
  const csv = op.waitForEvent('download');
  await op.getByRole('button', { name: 'Export to CSV' }).click();
  const file = await csv;
  const text = await readFile((await file.path())!, 'utf8');
  expect(text).toContain(orderUID);

  // The organiser sees the same payout in the tenant console.
  const org = await browser.newPage();
  await logInToConsole(org, tenant, ORGANISER.email, ORGANISER.password);
  await org.goto(`${tenant}/reports/payouts/completed`);
  const mine = org.getByRole('table', { name: 'Completed payouts' });
  await expect(mine).toContainText(payoutId.slice(0, 8));
  await mine.getByRole('row', { name: new RegExp(payoutId.slice(0, 8)) }).click();
  await expect(org.getByRole('table', { name: 'Payout orders' })).toContainText(orderUID);
  await admin.ctx.dispose();
});
