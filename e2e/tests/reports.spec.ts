import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, buy, expectToast, givenEventOnSale, logInToConsole, ORGANISER, platformOrigin, send, signIn, tenantOrigin, type Api } from './support';

// Reports and order management (issue 8, spec reports-payouts-checkout §2 Reports, Order detail
// page, §4, §5, §8): an attendee buys through the attendee site; the organiser sees the sale on the
// dashboard, finds the order by e-mail, voids a ticket, refunds part of the order and exports the
// orders CSV; the operator sees the sale in Platform Sales, Taxes and Donations.

const CHARITY = 'Riverside Music Fund';

async function charityId(organiser: Api): Promise<string> {
  const res = await organiser.ctx.get(`/api/tenants/${organiser.tenantId}/charities`, { params: { limit: 100 } });
  const list = (await res.json()) as { result: Array<{ id: string; details: { name: string } }> };
  const charity = list.result.find((c) => c.details.name === CHARITY);
  expect(charity, `the seeded charity ${CHARITY}`).toBeDefined();
  return charity!.id;
}

/** An attendee buys two tickets with a $10 donation through the attendee site and the test gateway. */
const buyTwoTickets = (page: Page, origin: string, urlName: string, email: string) =>
  buy(page, origin, urlName, email, {
    count: 2,
    who: { firstName: 'Ada', lastName: 'Lovelace' },
    beforePlacing: async (p) => {
      await p.getByTestId('donation').getByRole('radio', { name: '$10' }).check();
      await expect(p.getByTestId('breakdown-donation')).toHaveText('$10.00');
    },
  });

/** The first dollar amount in a text, in cents. */
const money = (text: string) => Math.round(Number((/\$([\d,]+\.\d{2})/.exec(text)?.[1] ?? 'NaN').replace(/,/g, '')) * 100);

test.describe('reports and order management', () => {
  test('an organiser finds an order by e-mail, voids a ticket, refunds part of it and exports the orders; the operator sees the sale', async ({ browser, page, baseURL }) => {
    test.setTimeout(180_000);
    const tenant = tenantOrigin(baseURL);
    const organiser = await signIn(tenant, ORGANISER);
    const event = await givenEventOnSale(organiser, { prefix: 'Report Night', charityId: await charityId(organiser) });
    await organiser.ctx.dispose();
    const email = `report.buyer.${Date.now().toString(36)}@example.com`;
    const orderUID = await buyTwoTickets(page, tenant, event.urlName, email);

    // The organiser's console home shows the tenant dashboard instead of "not yet available".
    const organiserPage = await browser.newPage();
    await logInToConsole(organiserPage, tenant, ORGANISER.email, ORGANISER.password);
    await expect(organiserPage.getByText('Sales statistics are not yet available')).toHaveCount(0);
    await expect(organiserPage.getByTestId('card-gross-sales')).toContainText('$');
    await expect(organiserPage.getByTestId('card-orders')).toBeVisible();
    expect(money((await organiserPage.getByTestId('card-gross-sales').textContent())!)).toBeGreaterThanOrEqual(8000);

    // Find an order by e-mail, across all events.
    await organiserPage.getByRole('textbox', { name: 'Find an order' }).fill(email);
    await organiserPage.getByRole('button', { name: 'Find' }).click();
    await expect(organiserPage).toHaveURL(/\/reports\/orders\?/);
    const found = organiserPage.getByRole('table', { name: 'Orders' });
    await expect(found.locator('tbody tr')).toHaveCount(1);
    await expect(found).toContainText(orderUID);
    await expect(found).toContainText(event.name);
    await found.getByRole('button', { name: `View order ${orderUID}` }).click();

    // The order page outside reports: Resend and Download Tickets for a completed order.
    await expect(organiserPage).toHaveURL(new RegExp(`/event/${event.eventId}/order/${orderUID}$`));
    await expect(organiserPage.getByRole('heading', { name: `Order ${orderUID}` })).toBeVisible();
    await expect(organiserPage.getByRole('button', { name: 'Resend Tickets' })).toBeVisible();
    await expect(organiserPage.getByRole('button', { name: 'Download Tickets' })).toBeVisible();
    await expect(organiserPage.getByTestId('payout-state')).toHaveText('Payout Pending');
    await expect(organiserPage.getByText(`Donation to ${CHARITY}`)).toBeVisible();
    // Where the money goes: the charity's part of the donation is a line of its own (issue 21.10).
    await expect(organiserPage.getByTestId('split-charity')).toContainText(`${CHARITY} receives`);
    const pdf = organiserPage.waitForEvent('download');
    await organiserPage.getByRole('button', { name: 'Download Tickets' }).click();
    expect((await pdf).suggestedFilename()).toBe(`tickets_${orderUID}.pdf`);

    // Void one ticket: the reason is required (spec §5), then 'Ticket Voided' and the list reloads.
    const tickets = organiserPage.getByRole('table', { name: 'Tickets' });
    await expect(tickets.locator('tbody tr')).toHaveCount(2);
    await tickets.getByRole('button', { name: 'Void' }).first().click();
    const voidDialog = organiserPage.getByRole('dialog');
    await voidDialog.getByRole('button', { name: 'Void Ticket' }).click();
    await expect(voidDialog).toContainText('Reason is required.');
    await voidDialog.getByLabel('Reason').fill('Bought twice by mistake');
    await voidDialog.getByRole('button', { name: 'Void Ticket' }).click();
    await expectToast(organiserPage, 'Ticket Voided');
    await expect(tickets.getByText('Voided', { exact: true })).toHaveCount(1);
    await expect(tickets.getByRole('button', { name: 'Unvoid' })).toHaveCount(1);

    // Refund $5.00 of the order, with a reason, after a confirmation.
    await organiserPage.getByRole('button', { name: 'Refund', exact: true }).click();
    const refundDialog = organiserPage.getByRole('dialog', { name: `Refund order ${orderUID}` });
    await refundDialog.getByText('Partial amount').click();
    await refundDialog.getByLabel('Amount to refund').fill('5');
    await refundDialog.getByLabel('Reason').fill('Late start');
    await refundDialog.getByRole('button', { name: 'Refund…' }).click();
    const confirm = organiserPage.getByRole('dialog', { name: 'Confirm refund' });
    await expect(confirm).toContainText('$5.00');
    await confirm.getByRole('button', { name: 'Refund', exact: true }).click();
    await expectToast(organiserPage, 'Refund submitted.');
    await expect(organiserPage.getByText('Refund Issued')).toBeVisible();
    const refunds = organiserPage.getByRole('table', { name: 'Refunds' });
    await expect(refunds).toContainText('$5.00');
    await expect(refunds).toContainText('Late start');
    await expect(organiserPage.getByTestId('order-refunded')).toHaveText('-$5.00');

    // The event's orders report: the order is marked refunded; the CSV export holds it.
    await organiserPage.goto(`${tenant}/reports/sales`);
    await organiserPage.getByRole('link', { name: /GROSS SALES/ }).click();
    await expect(organiserPage).toHaveURL(/\/reports\/sales\/events$/);
    await organiserPage.getByRole('link', { name: event.name }).click();
    await expect(organiserPage.getByRole('heading', { name: event.name })).toBeVisible();
    await expect(organiserPage.getByTestId('card-tickets-sold')).toBeVisible();
    await organiserPage.getByRole('link', { name: /ORDERS/ }).click();
    const orders = organiserPage.getByRole('table', { name: 'Orders' });
    await expect(orders.locator('tbody tr')).toHaveCount(1);
    await expect(orders.locator('tbody tr').first()).toContainText('Yes');
    // One order page with every action, opened from Reports too (issue 21.10).
    await orders.getByRole('link', { name: orderUID }).click();
    await expect(organiserPage.getByRole('heading', { name: `Order ${orderUID}` })).toBeVisible();
    await expect(organiserPage.getByRole('button', { name: 'Resend Tickets' })).toBeVisible();
    await expect(organiserPage.getByRole('button', { name: 'Download Tickets' })).toBeVisible();
    await expect(organiserPage.getByTestId('order-status')).toHaveText('Partially refunded');
    await organiserPage.goBack();
    const csv = organiserPage.waitForEvent('download');
    await organiserPage.getByRole('button', { name: 'Export to CSV' }).click();
    const file = await csv;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const text = await readFile((await file.path())!, 'utf8');
    expect(text.charCodeAt(0), 'UTF-8 with a BOM').toBe(0xfeff);
    const lines = text.slice(1).trim().split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(orderUID);
    expect(lines[1]).toContain(email);
    await organiserPage.close();

    // The operator sees the sale in Platform Sales, Taxes and Donations.
    const operator = await browser.newPage();
    await logInToConsole(operator, platformOrigin(baseURL), ADMIN.email, ADMIN.password);
    await operator.goto(`${platformOrigin(baseURL)}/reports/sales`);
    await expect(operator.getByRole('heading', { name: 'Platform Sales' })).toBeVisible();
    const sales = operator.getByRole('table', { name: 'Platform Sales' });
    await expect(sales.getByRole('button', { name: /acme/ })).toBeVisible();
    await expect(operator.getByRole('button', { name: 'Export ALL to CSV' })).toBeVisible();
    await sales.getByRole('button', { name: /acme/ }).click();
    await expect(operator).toHaveURL(/\/reports\/sales\/[0-9a-f-]{36}$/);
    await expect(operator.getByRole('link', { name: 'Back To Tenant List' })).toBeVisible();
    await expect(operator.getByTestId('card-refunds')).toContainText('$');
    await operator.goto(`${platformOrigin(baseURL)}/reports/taxes`);
    await expect(operator.getByRole('heading', { name: 'Platform Taxes' })).toBeVisible();
    await expect(operator.getByRole('table', { name: 'Platform Taxes' })).toContainText('acme');
    await operator.goto(`${platformOrigin(baseURL)}/reports/donations`);
    await expect(operator.getByRole('heading', { name: 'Platform Donations' })).toBeVisible();
    const donations = operator.getByRole('table', { name: 'Platform Donations' }).locator('tbody tr').filter({ hasText: 'acme' });
    await expect(donations).toHaveCount(1);
    // Tenant (its name), Tenant URL, Ticket Sold, Gross sales, Net Revenue, Total Donation, ...
    await expect(donations.locator('td').nth(0)).toContainText('Acme Events');
    const donationCell = donations.locator('td').nth(5);
    expect(money((await donationCell.textContent())!)).toBeGreaterThanOrEqual(1000);
    await operator.close();

    // Cancelling the event refunds what is left of its paid order as a job; the event page shows it.
    const again = await signIn(tenant, ORGANISER);
    await send(again, `/api/tenants/${again.tenantId}/events/${event.eventId}/cancel`);
    await again.ctx.dispose();
    const eventPage = await browser.newPage();
    await logInToConsole(eventPage, tenant, ORGANISER.email, ORGANISER.password);
    await eventPage.goto(`${tenant}/events/${event.eventId}`);
    const progress = eventPage.getByTestId('cancellation-progress');
    await expect(progress).toContainText('Cancellation refunds finished', { timeout: 30_000 });
    await expect(progress).toContainText('1 of 1 order refunded');
    await eventPage.close();
  });
});
