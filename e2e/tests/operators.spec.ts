import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, buy, givenEventOnSale, givenTenant, logInToConsole, ORGANISER, originOf, platformOrigin, post, signIn, tenantOrigin } from './support';

// Issue 21, operators. 17: on Pending Payouts only a row that can be transferred is 'Ready For
// Payout' and can be chosen (a refund row is Pending, taken from the next payout), and a refused
// transfer keeps its reason on the row and above the table. 18: Payment/Payouts names the real card
// processor and connects the tenant's payout account through the gateway's onboarding (the test
// gateway's stand-in page), with no account id copied by hand. Run on a 390 px phone, then checked
// and photographed at 1280 px.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/operators-${name}.png`, fullPage: true });
/** WCAG 2.2 AA (axe), as accessibility.spec.ts checks every console page. */
const axe = async (page: Page) =>
  (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);

test('Pending Payouts: a refund row is Pending and cannot be chosen; a refused transfer keeps its reason on screen', async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  const platform = platformOrigin(baseURL);
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const admin = await signIn(platform, ADMIN);
  // A tenant with no payout account: its transfer is refused with the gateway's reason.
  const url = `quay-${tag}`;
  const tenantId = await givenTenant(admin, `Quay ${tag}`, url);
  const event = await givenEventOnSale({ ...admin, tenantId }, { name: `Quay Night ${tag}` });
  const buyer = await browser.newPage();
  const orderUid = await buy(buyer, originOf(platform, url), event.urlName, `quay.buyer.${tag}@example.com`, { who: { firstName: 'Ada', lastName: 'Lovelace' } });
  await buyer.close();
  // The organiser gives $5.00 back.
  await post(admin, `/api/tenants/${tenantId}/events/${event.eventId}/orders/${orderUid}/refunds`, { mode: 'amount', amount: 500, reason: 'Seat moved' });

  // The payment's and the refund's payout lines are written by their jobs within a poll or two.
  await expect
    .poll(async () => ((await (await admin.ctx.get('/api/platform/payouts/pending', { params: { filters: `details.orderUID=${orderUid}` } })).json()) as { count: number }).count, { timeout: 30_000 })
    .toBe(2);

  const op = await (await browser.newContext({ viewport: PHONE })).newPage();
  await logInToConsole(op, platform, ADMIN.email, ADMIN.password);
  await op.goto(`${platform}/reports/payouts/pending`);
  const table = op.getByRole('table', { name: 'Pending payouts' });
  const find = async () => {
    await op.getByRole('textbox', { name: 'Search by Order ID' }).fill(orderUid);
    await expect(table.locator('tbody tr').filter({ hasText: orderUid })).toHaveCount(2);
    await expect(table.locator('tbody tr')).toHaveCount(2);
  };
  await find();
  const ours = table.locator('tbody tr').filter({ hasText: orderUid });
  const refundRow = ours.filter({ hasText: 'Refund' });
  const saleRow = ours.filter({ hasNotText: 'Refund' });
  await expect(refundRow).toContainText('Pending');
  await expect(refundRow).toContainText("Taken from the tenant's next payout");
  await expect(refundRow).not.toContainText('Ready For Payout');
  await expect(refundRow.getByRole('checkbox')).toBeDisabled();

  // Once the balance is available (PAYOUT_DELAY_DAYS on the test server: 43 s) the sale is ready;
  // the refund row never is.
  await expect(async () => {
    await op.reload();
    await find();
    await expect(saleRow).toContainText('Ready For Payout', { timeout: 3_000 });
  }).toPass({ timeout: 120_000, intervals: [2_000, 5_000] });
  await expect(saleRow.getByRole('checkbox')).toBeEnabled();
  await expect(refundRow).toContainText('Pending');
  await expect(refundRow.getByRole('checkbox')).toBeDisabled();
  // The 'Ready For Payout' filter shows exactly the ready row.
  await op.getByRole('checkbox', { name: 'Ready For Payout' }).check();
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator('tbody tr')).toContainText('Ready For Payout');
  await op.getByRole('checkbox', { name: 'Ready For Payout' }).uncheck();
  await expect(table.locator('tbody tr')).toHaveCount(2);

  // Transfer: refused (no payout account); the reason stays on the row and above the table after the refresh.
  await saleRow.getByRole('checkbox').check();
  await op.getByRole('button', { name: 'Transfer (1)' }).click();
  const failures = op.getByTestId('transfer-failures');
  await expect(failures).toContainText(orderUid);
  await expect(failures).toContainText('gateway destination not found');
  await expect(failures).toContainText('Please contact the tenant owner to setup stripe account.');
  await op.waitForTimeout(3_500); // the spec's 2.5 s refresh has run
  await expect(failures).toBeVisible();
  await expect(saleRow.getByTestId('row-failure')).toContainText('Transfer failed:');
  await expect(saleRow.getByTestId('row-failure')).toContainText('gateway destination not found');
  // The refund row was not chosen: it shows no failure of its own.
  await expect(refundRow.getByTestId('row-failure')).toHaveCount(0);
  await expect(op.getByRole('button', { name: /^Transfer/ })).toHaveText('Transfer');
  await shot(op, 'pending-payouts-390');
  expect(await axe(op)).toEqual([]);

  await op.setViewportSize(DESKTOP);
  await expect(saleRow.getByTestId('row-failure')).toBeVisible();
  await expect(refundRow.getByRole('checkbox')).toBeDisabled();
  await shot(op, 'pending-payouts-1280');
  // Dismissed, the list goes; the row keeps the reason the line carries.
  await failures.getByRole('button', { name: 'Dismiss transfer errors' }).click();
  await expect(failures).toBeHidden();
  await expect(saleRow.getByTestId('row-failure')).toContainText('gateway destination not found');
  await admin.ctx.dispose();
});

test('Payment/Payouts: the real card processor, and a payout account connected through onboarding', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const platform = platformOrigin(baseURL);
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const admin = await signIn(platform, ADMIN);
  const tenantId = await givenTenant(admin, `Pier ${tag}`, `pier-${tag}`);

  const op = await (await browser.newContext({ viewport: PHONE })).newPage();
  await logInToConsole(op, platform, ADMIN.email, ADMIN.password);
  await op.goto(`${platform}/tenant/${tenantId}/payment-settings`);
  const panel = op.getByTestId('payout-account');
  await expect(panel.getByTestId('card-processor')).toHaveText('Marquee test gateway');
  await expect(panel).toContainText('Test mode');
  await expect(op.getByText('Stripe', { exact: true })).toHaveCount(0);
  await expect(panel.getByTestId('payout-account-state')).toHaveText('Not connected');
  await shot(op, 'payment-settings-not-connected-390');

  // Onboarding, left half way: back on the page, not finished.
  await panel.getByRole('button', { name: 'Connect payout account' }).click();
  await expect(op).toHaveURL(/\/connect\/onboard\//);
  await expect(op.getByRole('heading', { name: `Set up payouts for Pier ${tag}` })).toBeVisible();
  await shot(op, 'onboarding-stand-in-390');
  expect(await axe(op)).toEqual([]);
  await op.getByRole('button', { name: 'Leave for now' }).click();
  await expect(op).toHaveURL(new RegExp(`/tenant/${tenantId}/payment-settings$`));
  await expect(op.getByText('Onboarding not finished').first()).toBeVisible();
  await expect(panel.getByTestId('payout-account-state')).toHaveText('Onboarding not finished');

  // Continued and finished: connected, and the account is where payouts go.
  await panel.getByRole('button', { name: 'Continue onboarding' }).click();
  await expect(op).toHaveURL(/\/connect\/onboard\//);
  await op.getByRole('button', { name: 'Finish onboarding' }).click();
  await expect(op).toHaveURL(new RegExp(`/tenant/${tenantId}/payment-settings$`));
  await expect(op.getByText('Payout account connected')).toBeVisible();
  await expect(panel.getByTestId('payout-account-state')).toHaveText('Connected');
  const accountId = (await panel.getByTestId('payout-account-id').innerText()).trim();
  expect(accountId).toMatch(/^acct_test_/);
  const settings = (await (await admin.ctx.get(`/api/tenants/${tenantId}/payment-settings`)).json()) as { payment: { id: string } };
  expect(settings.payment.id).toBe(accountId);
  await expect(panel.getByRole('button', { name: /onboarding|Connect/ })).toHaveCount(0);
  await shot(op, 'payment-settings-connected-390');
  expect(await axe(op)).toEqual([]);

  await op.setViewportSize(DESKTOP);
  await expect(panel.getByTestId('payout-account-state')).toHaveText('Connected');
  await shot(op, 'payment-settings-connected-1280');
  await admin.ctx.dispose();
});

test('Words: no toast on top of inline errors, a greeting without the seed label, tenants named by name', async ({ browser, baseURL }) => {
  const platform = platformOrigin(baseURL);
  const acme = tenantOrigin(baseURL);
  const op = await (await browser.newContext({ viewport: PHONE })).newPage();
  await logInToConsole(op, platform, ADMIN.email, ADMIN.password);
  // The seeded admin is 'Platform Admin', a label, not a name: no "Welcome back, Platform."
  await expect(op.getByText('Welcome back. Here is how Marquee is doing across every tenant.')).toBeVisible();
  await expect(op.getByText('Welcome back, Platform')).toHaveCount(0);

  // Create New Tenant with nothing filled in: the fields say why, nothing else does; the first gets the focus.
  await op.goto(`${platform}/tenants`);
  await op.getByRole('button', { name: 'Create New Tenant' }).first().click();
  const create = op.getByRole('dialog', { name: 'Create New Tenant' });
  await create.getByRole('button', { name: 'Create Tenant' }).click();
  await expect(create.getByText('Tenant name is required.')).toBeVisible();
  await expect(create.getByText('Email is required.')).toBeVisible();
  await expect(create.getByLabel('Tenant Name')).toBeFocused();
  await op.waitForTimeout(500);
  await expect(op.locator('.mantine-Notification-root')).toHaveCount(0);
  await shot(op, 'create-tenant-errors-390');
  await create.getByRole('button', { name: 'Cancel' }).click();

  // The demo tenant's Refunds and Payouts are titled with its name, its URL beneath.
  const organiser = await signIn(acme, ORGANISER);
  await op.goto(`${platform}/reports/sales/${organiser.tenantId}/refunds`);
  await expect(op.getByRole('heading', { name: 'Refunds: Acme Events' })).toBeVisible();
  await expect(op.getByText(/^acme\.localhost/)).toBeVisible();
  const org = await browser.newPage({ viewport: PHONE });
  await logInToConsole(org, acme, ORGANISER.email, ORGANISER.password);
  await org.goto(`${acme}/reports/payouts/completed`);
  await expect(org.getByRole('heading', { name: 'Payouts: Acme Events' })).toBeVisible();
  await shot(org, 'tenant-payouts-title-390');
  await organiser.ctx.dispose();
});
