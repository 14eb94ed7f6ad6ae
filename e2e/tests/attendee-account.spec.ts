import { M } from '@marquee/core';
import { expect, test } from '@playwright/test';
import { expectToast, linkFromOutbox, logIn, makePng, uniqueEmail } from './support';

const FIRST_PASSWORD = 'Tickets-4-all!';
const NEW_PASSWORD = 'Encore-2-night!';

test('an attendee signs up, verifies from the mail, edits the profile, changes the password and signs in again', async ({ page, browser, baseURL }) => {
  const email = uniqueEmail('ada');

  await test.step('sign up as an attendee', async () => {
    await page.goto('/signup');
    await expect(page.getByRole('heading', { name: 'Create an Account' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Lovelace');
    await page.getByLabel('Mobile Number').pressSequentially('5551234567');
    await expect(page.getByLabel('Mobile Number')).toHaveValue('+1 (555) 123 4567');
    // The form shows the spec's messages before anything is sent.
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText(M.passwordMin)).toBeVisible();
    await expect(page.getByText(M.confirmPasswordEnter)).toBeVisible();
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(FIRST_PASSWORD);
    await page.getByLabel('Confirm Password').fill(FIRST_PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expectToast(page, M.registerSuccess);
    await expect(page).toHaveURL(/\/verify\?/);
    await expect(page.getByTestId('code-sent')).toContainText(email);
  });

  await test.step('an unverified account cannot sign in yet', async () => {
    await logIn(page, email, FIRST_PASSWORD);
    await expect(page.getByTestId('login-error')).toContainText('verify');
    // EMAIL_NOT_VERIFIED (not any 403) offers the way to the code.
    await expect(page.getByTestId('login-error').getByRole('link', { name: 'Enter the code from the e-mail' })).toBeVisible();
  });

  await test.step('open the verification mail in the outbox and follow its link', async () => {
    const link = await linkFromOutbox(browser, baseURL!, email, '/verify');
    expect(link.searchParams.get('newUserName')).toBe(email);
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page).toHaveURL(/\/login\?newUserName=.*&code=\d{6}/);
    await expect(page.getByTestId('verified-note')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);
  });

  await test.step('log in', async () => {
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(FIRST_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    // An attendee has no console on the platform host: a polite notice, with their account pages.
    await expect(page.getByTestId('no-console-access')).toContainText('Welcome, Ada Lovelace');
  });

  await test.step('edit the profile, with a picture', async () => {
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page.getByRole('heading', { name: 'Basic Info' })).toBeVisible();
    await expect(page.getByLabel('First Name')).toHaveValue('Ada');
    await expect(page.getByLabel('Contact Number')).toHaveValue('+1 (555) 123 4567');

    // A file that is not a picture is refused before upload, with the spec's message.
    await page.locator('input[type=file]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(page.getByTestId('picture-hint')).toHaveText(M.pictureType);
    await expectToast(page, M.error, M.pictureType);

    await page.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: makePng() });
    await expectToast(page, M.success, M.successfullyUpdated);
    await expect(page.getByTestId('profile-picture').locator('img')).toHaveAttribute('src', /\/api\/files\/users\//);

    // Saving with an error is refused with the spec's toast and field message.
    await page.getByLabel('First Name').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, M.inputValidationError);
    await expect(page.getByText(M.firstNameRequired)).toBeVisible();

    await page.getByLabel('First Name').fill('Augusta Ada');
    await page.getByLabel('City').fill('London');
    await page.getByLabel('Zip').fill('12345');
    await page.getByLabel('Country').fill('United Kingdom');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, M.success, M.profileUpdated);
    // The session is refreshed: the header shows the new name.
    await expect(page.getByTestId('user-menu')).toContainText('Augusta Ada Lovelace');

    await page.reload();
    await expect(page.getByLabel('City')).toHaveValue('London');
    await expect(page.getByLabel('First Name')).toHaveValue('Augusta Ada');
    await expect(page.getByTestId('profile-picture').locator('img')).toBeVisible();
  });

  await test.step('change the password', async () => {
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Change Password' }).click();
    await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();

    await page.getByLabel('Current Password').fill('Not-the-one-1!');
    await page.getByLabel('New Password').fill(NEW_PASSWORD);
    await page.getByLabel('Confirm Password').fill('Something-else-1!');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText(M.newPasswordMismatch)).toBeVisible();

    await page.getByLabel('Confirm Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expectToast(page, M.invalid, M.wrongPassword);

    await page.getByLabel('Current Password').fill(FIRST_PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expectToast(page, M.success, 'Your password has been changed.');
    await expect(page.getByLabel('Current Password')).toHaveValue('');
  });

  await test.step('the new session keeps working (fresh CSRF token)', async () => {
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.getByLabel('Address 1').fill('12 St James Square');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, M.success, M.profileUpdated);
  });

  await test.step('log out, then log in with the new password', async () => {
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: M.invalidSessionTitle })).toHaveCount(0);

    await logIn(page, email, FIRST_PASSWORD);
    await expect(page.getByTestId('login-error')).toContainText(M.signInFailed);

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByTestId('no-console-access')).toContainText('Welcome, Augusta Ada Lovelace');
  });
});

test('a signed-out visitor of the console is sent to log in, and returns there after', async ({ page }) => {
  await page.goto('/outbox');
  await expect(page).toHaveURL(/\/login\?next=%2Foutbox$/);
  await expectToast(page, M.invalidSessionTitle, M.invalidSessionBody);
  await page.getByLabel('Email').fill('admin@marquee.test');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Marquee-Admin-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/outbox$/);
  await expect(page.getByRole('heading', { name: 'Outbox' })).toBeVisible();
});
