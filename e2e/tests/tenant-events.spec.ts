import { expect, test, type Page } from '@playwright/test';
import { logInToConsole, ORGANISER, tenantOrigin } from './support';

// The tenant console's events (issue 4, "Tenant console: what is on sale"): the organiser creates
// an event with two ticket types and a discount code, publishes it, and the attendee site at
// /{urlName}/ shows it.

async function addTicketType(page: Page, t: { name: string; description: string; price: string; quantity: string }) {
  await page.getByTestId('add-ticket-type').click();
  const modal = page.getByRole('dialog', { name: 'Add ticket type' });
  await modal.getByLabel('Name').fill(t.name);
  await modal.getByLabel('Description').fill(t.description);
  await modal.getByLabel('Price').fill(t.price);
  await modal.getByLabel('Quantity').fill(t.quantity);
  await modal.getByTestId('save-ticket-type').click();
  await expect(modal).toBeHidden();
  await expect(page.getByRole('table', { name: 'Ticket types' }).getByText(t.name, { exact: true })).toBeVisible();
}

test('the tenant admin puts an event on sale and the attendee page shows it', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const origin = tenantOrigin(baseURL);
  const suffix = Date.now().toString(36);
  const name = `Harbour Lights Festival ${suffix}`;
  const urlName = `harbour-lights-festival-${suffix}`;

  await logInToConsole(page, origin, ORGANISER.email);

  // Create the event: the URL name follows the name, the public address is shown.
  await page.getByTestId('console-nav').getByRole('link', { name: 'Events' }).click();
  await expect(page.getByRole('heading', { name: 'Events', level: 2 })).toBeVisible();
  await page.getByRole('link', { name: 'Create Event' }).first().click();
  await expect(page).toHaveURL(/\/events\/new$/);
  await page.getByLabel(/^Event name/).fill(name);
  await expect(page.getByLabel('URL name')).toHaveValue(urlName);
  await expect(page.getByTestId('public-url')).toHaveText(`${origin}/${urlName}/`);
  await page.getByRole('textbox', { name: /^Time zone/ }).click();
  await page.getByRole('textbox', { name: /^Time zone/ }).fill('Chicago');
  await page.getByRole('option', { name: /Central Time \(Chicago\)/ }).click();
  await page.getByLabel('Starts date').fill('08/15/2031');
  await page.getByLabel('Starts time').fill('19:30');
  await page.getByLabel('Venue name', { exact: true }).fill('Pier 9');
  await page.getByLabel('Address', { exact: true }).fill('9 Harbour Road');
  await page.getByLabel('City', { exact: true }).fill('Chicago');
  await page.getByLabel('State', { exact: true }).fill('IL');
  await page.getByLabel('Capacity', { exact: true }).fill('500');
  await page.getByRole('button', { name: 'Create event' }).click();

  // The new event opens on its ticket types.
  await expect(page).toHaveURL(/\/events\/[0-9a-f-]{36}\/ticket-types$/);
  await expect(page.getByTestId('event-title')).toHaveText(name);
  await expect(page.getByTestId('event-status').first()).toHaveText('Draft');
  // 19:30 typed in Chicago's zone is shown back as Chicago's wall clock.
  await expect(page.getByText('Fri, Aug 15, 2031, 7:30 PM CDT')).toBeVisible();
  await addTicketType(page, { name: 'General Admission', description: 'Standing, all areas.', price: '25', quantity: '300' });
  await addTicketType(page, { name: 'VIP Deck', description: 'Seated deck with a welcome drink.', price: '89.50', quantity: '40' });

  // A discount code for the VIP tickets only; typed lower-case, kept upper-case.
  await page.getByRole('tab', { name: 'Discount codes' }).click();
  await page.getByTestId('add-discount-code').click();
  const modal = page.getByRole('dialog', { name: 'Add discount code' });
  await modal.getByRole('textbox', { name: /^Code/ }).fill('harbour15');
  await expect(modal.getByRole('textbox', { name: /^Code/ })).toHaveValue('HARBOUR15');
  await modal.getByRole('textbox', { name: 'Percentage off' }).fill('15');
  await modal.getByRole('textbox', { name: /^Applies to/ }).click();
  await page.getByRole('option', { name: 'VIP Deck' }).click();
  await modal.getByRole('textbox', { name: /^Usage limit/ }).fill('50');
  await modal.getByTestId('save-discount-code').click();
  await expect(modal).toBeHidden();
  const codes = page.getByRole('table', { name: 'Discount codes' });
  await expect(codes.getByText('HARBOUR15')).toBeVisible();
  await expect(codes.getByText('15% off', { exact: true })).toBeVisible();

  // Publish.
  await page.getByTestId('publish-event').click();
  await expect(page.getByTestId('event-status').first()).toHaveText('Published');
  await expect(page.getByTestId('view-event-page')).toHaveAttribute('href', `${origin}/${urlName}/`);

  // The attendee event page shows the event and what it sells.
  await page.goto(`${origin}/${urlName}/`);
  await expect(page.getByText(name).first()).toBeVisible();
  await expect(page.getByText('General Admission').first()).toBeVisible();
  await expect(page.getByText('$25.00').first()).toBeVisible();
  await expect(page.getByText('VIP Deck').first()).toBeVisible();
  await expect(page.getByText('$89.50').first()).toBeVisible();

  // Another event cannot take the same URL name: the server's message shows under the field.
  await page.goto(`${origin}/events/new`);
  await page.getByLabel(/^Event name/).fill('Harbour Lights Again');
  await page.getByLabel('URL name').fill(urlName);
  await page.getByRole('button', { name: 'Create event' }).click();
  await expect(page.getByRole('form', { name: 'Event details' }).getByText('Another event already uses this URL name.')).toBeVisible();
  await expect(page).toHaveURL(/\/events\/new$/);
});

test('a new event starts in the organiser’s own time zone (the browser’s), not a fixed one', async ({ browser, baseURL }) => {
  const origin = tenantOrigin(baseURL);
  for (const [timezoneId, shown, abbreviation] of [
    ['America/Denver', 'Mountain Time (Denver)', 'MDT'],
    ['Europe/Berlin', 'Europe / Berlin', 'GMT+2'],
  ] as const) {
    const context = await browser.newContext({ timezoneId, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logInToConsole(page, origin, ORGANISER.email);
    await page.goto(`${origin}/events/new`);
    await expect(page.getByRole('textbox', { name: /^Time zone/ })).toHaveValue(new RegExp(`^${shown.replace(/[()]/g, '\\$&')} · UTC`));
    const suffix = Date.now().toString(36);
    await page.getByLabel(/^Event name/).fill(`Zone Check ${suffix}`);
    await expect(page.getByLabel('URL name')).toHaveValue(`zone-check-${suffix}`);
    await page.getByLabel('Starts date').fill('08/15/2031');
    await page.getByLabel('Starts time').fill('19:30');
    await expect(page.getByLabel('Starts time')).toHaveValue('19:30');
    await page.getByRole('button', { name: 'Create event' }).click();
    await expect(page).toHaveURL(/\/events\/[0-9a-f-]{36}\/ticket-types$/);
    // 19:30 in the browser's zone, kept as that zone's wall clock.
    await expect(page.getByText(`Fri, Aug 15, 2031, 7:30 PM ${abbreviation}`)).toBeVisible();
    await context.close();
  }
});
