import { M } from '@marquee/core';
import { expect, test } from '@playwright/test';
import { expectToast, linkFromOutbox, logInToConsole, ORGANISER, tenantOrigin, uniqueEmail } from './support';

// Invites as the invited person sees them: an existing account accepts and links (a wrong
// password stays on the form with its toast, a broken link shows the failed screen, the right
// password shows Congratulations), and a broken sign-up invite goes back to log in.

const PASSWORD = 'Front-door-7!';

test('an existing account accepts a staff invite: wrong password, broken link, then Congratulations', async ({ page, browser, baseURL }) => {
  const acme = tenantOrigin(baseURL);
  const email = uniqueEmail('usher');

  await test.step('the person already has an account (signed up and verified)', async () => {
    // Through the browser's own fetch: only browsers resolve *.localhost.
    await page.goto(`${acme}/login`);
    const status = await page.evaluate(
      async (body) => (await fetch('/api/auth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
      { username: email, password: PASSWORD, password2: PASSWORD, firstName: 'Uma', lastName: 'Usher', appType: 'ATTENDEE' },
    );
    expect(status).toBe(201);
    const verify = await linkFromOutbox(browser, baseURL!, email, '/verify');
    await page.goto(verify.href);
    await expect(page.getByTestId('verified-note')).toBeVisible();
  });

  await test.step('the organiser invites them as staff', async () => {
    const organiser = await browser.newContext();
    const p = await organiser.newPage();
    await logInToConsole(p, acme, ORGANISER.email);
    await p.getByTestId('console-nav').getByRole('link', { name: 'Staff' }).click();
    const form = p.getByRole('form', { name: 'Invite staff' });
    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Send invite' }).click();
    await expectToast(p, 'Invite sent', email);
    await organiser.close();
  });

  const invite = await linkFromOutbox(browser, baseURL!, email, '/accept-invite');
  expect(invite.searchParams.get('userExist')).toBe('true');

  await test.step('a link whose code was altered shows the failed screen', async () => {
    const broken = new URL(invite.href);
    broken.searchParams.set('code', `${invite.searchParams.get('code')}x`);
    await page.goto(broken.href);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'CONFIRM' }).click();
    await expect(page.getByTestId('accept-invite-failed')).toContainText('Oops! Something went wrong');
    await expect(page.getByTestId('accept-invite-failed')).toContainText(M.linkFailedBody);
  });

  await test.step('a wrong password stays on the form with its toast', async () => {
    await page.goto(invite.href);
    await expect(page.getByRole('heading', { name: 'Accept and Link Account' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByLabel('Email')).toBeDisabled();
    await page.getByLabel('Password').fill('Not-my-password-1!');
    await page.getByRole('button', { name: 'CONFIRM' }).click();
    await expectToast(page, M.linkAuthFailedTitle, M.linkAuthFailedBody);
    await expect(page.getByRole('button', { name: 'CONFIRM' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Reset it' })).toHaveAttribute('href', /\/forgot-password/);
  });

  await test.step('the right password links the account', async () => {
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'CONFIRM' }).click();
    const success = page.getByTestId('accept-invite-success');
    await expect(success).toContainText('Congratulations');
    const login = success.getByRole('link', { name: /Log in to/ });
    await expect(login).toHaveAttribute('href', new RegExp(`^${acme.replace(/[.:/]/g, '\\$&')}/login\\?newUserName=`));
    await login.click();
    await page.locator('input[autocomplete="current-password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    // Staff now: the tenant console opens for them.
    await expect(page.getByTestId('console-nav')).toBeVisible();
  });

  await test.step('as Tenant Staff they read the events but cannot change them', async () => {
    await page.getByTestId('console-nav').getByRole('link', { name: 'Events' }).click();
    await expect(page.getByRole('heading', { name: 'Events', level: 2 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create Event' })).toHaveCount(0);
    // Other tests add events before this one: find it by name rather than on the first page.
    await page.getByPlaceholder('Search by event name').fill('Summer Jam');
    await page.getByRole('table', { name: 'Events' }).getByRole('row').filter({ hasText: 'Summer Jam' }).click();
    await expect(page.getByTestId('event-title')).toHaveText('Summer Jam');
    await expect(page.getByTestId('view-event-page')).toBeVisible();
    await expect(page.getByTestId('unpublish-event')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'More actions' })).toHaveCount(0);
    await expect(page.getByLabel('Event name')).toBeDisabled();
    await page.getByRole('tab', { name: 'Ticket types' }).click();
    await expect(page.getByTestId('add-ticket-type')).toBeDisabled();
  });
});

test('a sign-up link with a broken invite goes back to log in with Invite Verification Failed', async ({ page, baseURL }) => {
  const acme = tenantOrigin(baseURL);
  await page.goto(`${acme}/signup?${new URLSearchParams({ inviteCode: 'not-a-real-code', groupId: 'acme', email: uniqueEmail('nobody') })}`);
  await expect(page).toHaveURL(/\/login$/);
  await expectToast(page, M.inviteFailedTitle, M.inviteFailedBody);
});
