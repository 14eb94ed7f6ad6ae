import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN, buy, expectToast, linkFromOutbox, logInToConsole, originOf, platformOrigin } from './support';

// issue 15, done when: "a newly created tenant's admin, tried as a new user would, gets the invite,
// signs in and sells a ticket whose buyer finds the order again from another browser". Every person
// has a browser of their own; mails are read on the platform's Outbox page, as a person reads mail.

const PASSWORD = 'Box-office-2031!';

test('a new tenant: the operator creates it, its admin accepts the invite and sells a ticket, the buyer finds the order from another browser', async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const tenantName = `Lakeside Arts ${suffix}`;
  const url = `lakeside-arts-${suffix}`;
  const adminEmail = `box-office.${suffix}@lakeside.test`;
  const buyerEmail = `river.${suffix}@example.test`;
  const eventName = `Lakeside Summer Sessions ${suffix}`;
  const urlName = `lakeside-summer-sessions-${suffix}`;
  const site = originOf(baseURL, url);

  await test.step('the operator creates the tenant in the platform console', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logInToConsole(page, platformOrigin(baseURL), ADMIN.email);
    await page.getByTestId('console-nav').getByRole('link', { name: 'Tenants' }).click();
    await page.getByRole('button', { name: 'Create New Tenant' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create New Tenant' });
    await create.getByLabel('Tenant Name').fill(tenantName);
    await expect(create.getByLabel('URL')).toHaveValue(url);
    await create.getByLabel('Email').fill(adminEmail);
    await create.getByLabel('Phone').pressSequentially('3125550142');
    await create.getByLabel('Invite Subject').fill(`Join ${tenantName} on Marquee`);
    await create.getByLabel('Invite Message').fill(`You have been invited to run ${tenantName}'s box office.`);
    await create.getByRole('button', { name: 'Create Tenant' }).click();
    await expect(create).toBeHidden();
    await expectToast(page, `${tenantName} created`);
    await expect(page.getByTestId('bucket-setup')).toHaveAttribute('data-phase', 'success', { timeout: 30_000 });
    // The tenant page shows its admin's invite waiting.
    await page.getByPlaceholder('Search Tenant').fill(tenantName);
    const rows = page.getByRole('table', { name: 'Tenants' }).locator('tbody tr');
    await expect(rows).toHaveCount(1, { timeout: 10_000 });
    await rows.first().getByText(tenantName, { exact: true }).click();
    // The admin's row (the address may also still be in the create form's toast and the detail header).
    const adminRow = page.getByTestId('tenant-admin-row');
    await expect(adminRow.getByText(adminEmail)).toBeVisible();
    await expect(adminRow.getByText('Invite pending')).toBeVisible();
    await context.close();
  });

  const invite = await linkFromOutbox(browser, baseURL!, adminEmail, '/signup', `Join ${tenantName} on Marquee`);
  expect(invite.origin).toBe(site);

  await test.step('the new admin follows the link in a fresh browser, signs up, verifies and signs in', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(invite.href);
    await expect(page.getByRole('heading', { name: 'Create an Account' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(adminEmail);
    await page.screenshot({ path: test.info().outputPath('invite-signup.png') });
    await page.getByLabel('First Name').fill('Lena');
    await page.getByLabel('Last Name').fill('Marsh');
    await page.getByLabel('Mobile Number').pressSequentially('3125550199');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/verify\?/);

    const verify = await linkFromOutbox(browser, baseURL!, adminEmail, '/verify');
    expect(verify.origin).toBe(site);
    await page.goto(verify.href);
    await expect(page.getByTestId('verified-note')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(adminEmail);
    await page.locator('input[autocomplete="current-password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByTestId('console-nav')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`^${site.replace(/[.:/]/g, '\\$&')}/`));
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: test.info().outputPath('new-admin-console.png') });

    await test.step('creates an event with a ticket type and publishes it', async () => {
      await page.getByTestId('console-nav').getByRole('link', { name: 'Events' }).click();
      await expect(page.getByRole('heading', { name: 'Events', level: 2 })).toBeVisible();
      await page.getByRole('link', { name: 'Create Event' }).first().click();
      await expect(page).toHaveURL(/\/events\/new$/);
      await page.getByLabel(/^Event name/).fill(eventName);
      await expect(page.getByLabel('URL name')).toHaveValue(urlName);
      await page.getByLabel('Starts date').fill('07/18/2031');
      await page.getByLabel('Starts time').fill('18:00');
      await page.getByLabel('Venue name', { exact: true }).fill('Lakeside Bandstand');
      await page.getByLabel('Address', { exact: true }).fill('1 Shore Drive');
      await page.getByLabel('City', { exact: true }).fill('Chicago');
      await page.getByLabel('State', { exact: true }).fill('IL');
      await page.getByRole('button', { name: 'Create event' }).click();
      await expect(page).toHaveURL(/\/events\/[0-9a-f-]{36}\/ticket-types$/);
      await page.getByTestId('add-ticket-type').click();
      const modal = page.getByRole('dialog', { name: 'Add ticket type' });
      await modal.getByLabel('Name').fill('Lawn');
      await modal.getByLabel('Description').fill('Bring a blanket.');
      await modal.getByLabel('Price').fill('30');
      await modal.getByLabel('Quantity').fill('200');
      await modal.getByTestId('save-ticket-type').click();
      await expect(modal).toBeHidden();
      await page.getByTestId('publish-event').click();
      await expect(page.getByTestId('event-status').first()).toHaveText('Published');
      await expect(page.getByTestId('view-event-page')).toHaveAttribute('href', `${site}/${urlName}/`);
    });
    await context.close();
  });

  let orderUID = '';
  await test.step('a buyer on a phone buys a ticket with the test card', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${site}/${urlName}/`);
    await expect(page.getByText(eventName).first()).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('new-event-phone.png'), fullPage: true });
    orderUID = await buy(page, site, urlName, buyerEmail, { ticket: 'Lawn', who: { firstName: 'River', lastName: 'Song' } });
    await context.close();
  });

  await test.step('from a third browser, Find my tickets mails the order link; it opens the order and its tickets', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${site}/${urlName}/`);
    await page.getByTestId('find-my-tickets').click();
    await expect(page.getByRole('heading', { name: 'Find my tickets' })).toBeVisible();
    await page.getByTestId('find-tickets-email').fill(buyerEmail);
    await page.getByTestId('find-tickets-submit').click();
    await expect(page.getByTestId('find-tickets-sent')).toBeVisible();

    let order: URL | undefined;
    await expect(async () => {
      order = await linkFromOutbox(browser, baseURL!, buyerEmail, /^\/orders\/[A-Za-z0-9_-]{43}$/, 'Your tickets from');
    }).toPass({ timeout: 60_000 });
    expect(order!.origin).toBe(site);
    await page.goto(order!.href);
    await expect(page.getByTestId('order-link-page')).toHaveAttribute('data-status', 'paid');
    await expect(page.getByTestId('order-uid')).toHaveText(orderUID);
    await expect(page.getByTestId('order-link-ticket')).toHaveCount(1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('order-link-download').click()]);
    expect(download.suggestedFilename()).toBe(`tickets_${orderUID}.pdf`);
    expect(readFileSync((await download.path())!).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await context.close();
  });
});
