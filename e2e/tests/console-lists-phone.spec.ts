import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, logInToConsole, ORGANISER, platformOrigin, tenantOrigin } from './support';

// The console list pages (Global Policies, Sitebuilder Templates, and both Charities pages) on a
// 390 px phone: the table, its row menus and its empty state fit the screen, nothing is cut off at
// the right edge; at 1280 px the table keeps all its columns.

const PHONE = { width: 390, height: 844 };

const PAGES = [
  { console: 'platform', path: '/policies', table: 'Global policies', search: 'Search by name', empty: 'No policies match your search', wideOnly: ['ID', 'Group', 'Type'] },
  { console: 'platform', path: '/templates', table: 'Templates', search: 'Search Template', empty: 'No templates match', wideOnly: ['Created'] },
  { console: 'platform', path: '/charities', table: 'Charities', search: 'Search Charity', empty: 'No charities match', wideOnly: ['Status'] },
  { console: 'tenant', path: '/charities', table: 'Charities', search: 'Search Charity', empty: 'No charities match', wideOnly: [] },
] as const;

/** Whether the element lies inside the viewport's width. */
async function expectWithinWidth(page: Page, el: Locator) {
  const box = (await el.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** The table does not scroll sideways: everything in it is on screen. */
async function expectNoSideScroll(table: Locator) {
  const overflow = await table.evaluate((el) => {
    const scroller = el.closest('[tabindex]') as HTMLElement;
    return scroller.scrollWidth - scroller.clientWidth;
  });
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const p of PAGES) {
  test(`${p.console} ${p.path} fits a 390 px phone, with rows and empty`, async ({ browser, baseURL }) => {
    const page = await (await browser.newContext()).newPage();
    const isPlatform = p.console === 'platform';
    const origin = isPlatform ? platformOrigin(baseURL) : tenantOrigin(baseURL);
    await logInToConsole(page, origin, isPlatform ? ADMIN.email : ORGANISER.email);
    await page.setViewportSize(PHONE);
    await page.goto(`${origin}${p.path}`);

    const table = page.getByRole('table', { name: p.table, exact: true });
    const rows = table.locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    await expect(table.getByText(p.empty)).toHaveCount(0);
    await expectNoSideScroll(table);
    // The row menu (platform pages) is on screen, not scrolled off to the right.
    if (isPlatform) await expectWithinWidth(page, rows.first().getByRole('button', { name: /^Actions for / }));
    for (const header of p.wideOnly) await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeHidden();

    await page.getByPlaceholder(p.search).fill('zz-no-such-row');
    const empty = table.getByRole('heading', { name: p.empty });
    await expect(empty).toBeVisible();
    await expectNoSideScroll(table);
    await expectWithinWidth(page, empty);

    // At 1280 px the same page shows the columns a phone leaves out.
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const header of p.wideOnly) await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  });
}

test('a wide report table on a phone scrolls sideways but keeps its empty state on screen', async ({ browser, baseURL }) => {
  const page = await (await browser.newContext()).newPage();
  const origin = tenantOrigin(baseURL);
  await logInToConsole(page, origin, ORGANISER.email);
  await page.setViewportSize(PHONE);
  await page.goto(`${origin}/reports/orders`);
  const table = page.getByRole('table', { name: 'Orders', exact: true });
  await expect(table).toBeVisible();
  await page.getByPlaceholder(/^Search by Order ID/).fill('zz-no-such-order');
  const empty = table.getByRole('heading', { name: 'Nothing matches these filters' });
  await expect(empty).toBeVisible();
  // The table is wider than the phone (its columns scroll sideways) ...
  const overflow = await table.evaluate((el) => {
    const scroller = el.closest('[tabindex]') as HTMLElement;
    return scroller.scrollWidth - scroller.clientWidth;
  });
  expect(overflow).toBeGreaterThan(100);
  // ... and the message is still in view, not centred in the full width off to the right.
  await expectWithinWidth(page, empty);
  await expectWithinWidth(page, table.getByText('Try another search or date range.'));

  // At 1280 px (where this table still scrolls beside the sidebar) it is centred in the visible part.
  await page.setViewportSize({ width: 1280, height: 900 });
  const scroller = page.locator('[tabindex]', { has: table });
  await expect(async () => {
    const frame = (await scroller.boundingBox())!;
    const box = (await empty.boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - (frame.x + frame.width / 2))).toBeLessThan(4);
  }).toPass();
});

test('the tenant Events and Staff lists fit a 390 px phone: date, status and roles under the name', async ({ browser, baseURL }) => {
  const page = await (await browser.newContext()).newPage();
  const origin = tenantOrigin(baseURL);
  await logInToConsole(page, origin, ORGANISER.email);
  await page.setViewportSize(PHONE);

  await page.goto(`${origin}/events`);
  const events = page.getByRole('table', { name: 'Events', exact: true });
  // The demo's series dates and other specs' events fill the first page: find Summer Jam by name.
  await page.getByPlaceholder('Search by event name').fill('Summer Jam');
  const jam = events.getByRole('row').filter({ hasText: 'Summer Jam' });
  await expect(jam).toBeVisible();
  await expectNoSideScroll(events);
  for (const header of ['Date', 'Status', 'Tickets']) await expect(events.getByRole('columnheader', { name: header, exact: true })).toBeHidden();
  // Its status and when it starts are on screen, under its name.
  await expectWithinWidth(page, jam.getByTestId('event-status').filter({ visible: true }));
  await expectWithinWidth(page, jam.getByText(/\d{4}, \d{1,2}:\d{2} [AP]M/).filter({ visible: true }));

  await page.goto(`${origin}/staff`);
  const staff = page.getByRole('table', { name: 'Staff', exact: true });
  const me = staff.getByRole('row').filter({ hasText: ORGANISER.email });
  await expect(me).toBeVisible();
  await expectNoSideScroll(staff);
  for (const header of ['Roles', 'Status']) await expect(staff.getByRole('columnheader', { name: header, exact: true })).toBeHidden();
  await expectWithinWidth(page, me.getByText('Tenant Admin').filter({ visible: true }));
  await expectWithinWidth(page, me.getByText('Active', { exact: true }).filter({ visible: true }));
  await expectWithinWidth(page, me.getByRole('button', { name: `Actions for ${ORGANISER.email}` }));

  // At 1280 px both lists have their columns back.
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const header of ['Roles', 'Status']) await expect(staff.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  await page.goto(`${origin}/events`);
  for (const header of ['Date', 'Status', 'Tickets']) await expect(events.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
});

test("an event's ticket types and the platform's tenants fit a 390 px phone, with their row actions on screen", async ({ browser, baseURL }) => {
  const organiser = await (await browser.newContext({ viewport: PHONE })).newPage();
  const site = tenantOrigin(baseURL);
  await logInToConsole(organiser, site, ORGANISER.email);
  await organiser.goto(`${site}/events`);
  await organiser.getByPlaceholder('Search by event name').fill('Summer Jam');
  await organiser.getByRole('table', { name: 'Events', exact: true }).getByRole('link', { name: 'Summer Jam' }).click();
  await organiser.getByRole('tab', { name: 'Ticket types' }).click();
  const types = organiser.getByRole('table', { name: 'Ticket types', exact: true });
  const general = types.getByRole('row').filter({ hasText: 'General Admission' });
  await expect(general).toBeVisible();
  await expectNoSideScroll(types);
  for (const header of ['Price', 'Remaining']) await expect(types.getByRole('columnheader', { name: header, exact: true })).toBeHidden();
  await expectWithinWidth(organiser, general.getByText('$45.00').filter({ visible: true }));
  await expectWithinWidth(organiser, general.getByRole('button', { name: 'Edit General Admission' }));
  await expectWithinWidth(organiser, general.getByRole('button', { name: 'Delete General Admission' }));
  await organiser.setViewportSize({ width: 1280, height: 900 });
  for (const header of ['Price', 'Remaining']) await expect(types.getByRole('columnheader', { name: header, exact: true })).toBeVisible();

  const operator = await (await browser.newContext({ viewport: PHONE })).newPage();
  const platform = platformOrigin(baseURL);
  await logInToConsole(operator, platform, ADMIN.email);
  await operator.goto(`${platform}/tenants`);
  await operator.getByPlaceholder('Search Tenant').fill('Acme Events');
  const tenants = operator.getByRole('table', { name: 'Tenants', exact: true });
  const acme = tenants.getByRole('row').filter({ hasText: 'Acme Events' });
  await expect(acme).toHaveCount(1);
  await expectNoSideScroll(tenants);
  for (const header of ['URL', 'Status']) await expect(tenants.getByRole('columnheader', { name: header, exact: true })).toBeHidden();
  await expectWithinWidth(operator, acme.getByRole('link', { name: /^acme/ }));
  await expectWithinWidth(operator, acme.getByText('Active', { exact: true }).filter({ visible: true }));
  await operator.setViewportSize({ width: 1280, height: 900 });
  for (const header of ['URL', 'Status']) await expect(tenants.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
});

test("an event's discount codes fit a 390 px phone: discount, use and status under the code, Edit and Delete on screen (issue 21.16)", async ({ browser, baseURL }) => {
  const organiser = await (await browser.newContext({ viewport: PHONE })).newPage();
  const site = tenantOrigin(baseURL);
  await logInToConsole(organiser, site, ORGANISER.email);
  await organiser.goto(`${site}/events`);
  await organiser.getByPlaceholder('Search by event name').fill('Summer Jam');
  await organiser.getByRole('table', { name: 'Events', exact: true }).getByRole('link', { name: 'Summer Jam' }).click();
  await organiser.getByRole('tab', { name: 'Discount codes' }).click();
  const codes = organiser.getByRole('table', { name: 'Discount codes', exact: true });
  const welcome = codes.getByRole('row').filter({ hasText: 'WELCOME10' });
  await expect(welcome).toBeVisible();
  await expectNoSideScroll(codes);
  for (const header of ['Discount', 'Used', 'Status']) await expect(codes.getByRole('columnheader', { name: header, exact: true })).toBeHidden();
  await expectWithinWidth(organiser, welcome.getByText('10% off').filter({ visible: true }));
  await expectWithinWidth(organiser, welcome.getByText('Active', { exact: true }).filter({ visible: true }));
  await expectWithinWidth(organiser, welcome.getByRole('button', { name: 'Edit WELCOME10' }));
  await expectWithinWidth(organiser, welcome.getByRole('button', { name: 'Delete WELCOME10' }));
  await organiser.screenshot({ path: '/tmp/console-discount-codes-390.png', fullPage: true });
  await organiser.setViewportSize({ width: 1280, height: 900 });
  for (const header of ['Discount', 'Used', 'Status']) await expect(codes.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  await organiser.screenshot({ path: '/tmp/console-discount-codes-1280.png', fullPage: true });
});
