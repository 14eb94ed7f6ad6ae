import { expect, test } from '@playwright/test';
import { ADMIN, expectToast, givenEventOnSale, givenEventVolunteer, logInToConsole, mailsTo, ORGANISER, platformOrigin, signIn, tenantOrigin, uniqueEmail } from './support';

// The tenant console's Staff page: the demo organiser invites a staff member, sees them listed as
// Pending Verification, makes them an admin as well, removes them after confirming, and they are gone.

test('the organiser invites a staff member, sees them pending, and removes them', async ({ page, baseURL }) => {
  const email = uniqueEmail('door.staff');
  await logInToConsole(page, tenantOrigin(baseURL), ORGANISER.email);

  await page.getByTestId('console-nav').getByRole('link', { name: 'Staff' }).click();
  await expect(page.getByRole('heading', { name: 'Staff', level: 2 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Staff' });
  // The organiser is listed, marked as themselves, as an active Tenant Admin.
  const me = table.getByRole('row').filter({ hasText: ORGANISER.email });
  await expect(me).toContainText('You');
  await expect(me).toContainText('Tenant Admin');
  await expect(me).toContainText('Active');

  // Invite: the list refreshes and shows the invitee as Pending Verification.
  const form = page.getByRole('form', { name: 'Invite staff' });
  await form.getByLabel('Email').fill(email);
  await expect(form.getByRole('checkbox', { name: 'Tenant Staff' })).toBeChecked();
  await form.getByRole('button', { name: 'Send invite' }).click();
  await expectToast(page, 'Invite sent', email);
  const row = table.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Pending Verification');
  await expect(row).toContainText('Tenant Staff');

  // Edit roles: Save waits for a change; the invitee becomes an admin as well.
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Edit roles' }).click();
  const edit = page.getByRole('form', { name: 'Edit roles' });
  await expect(edit.getByRole('checkbox', { name: 'Tenant Staff' })).toBeChecked();
  await expect(edit.getByRole('button', { name: 'Save' })).toBeDisabled();
  await edit.getByRole('checkbox', { name: 'Tenant Admin' }).check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Roles updated');
  await expect(edit).toBeHidden();
  await expect(row).toContainText('Tenant Admin');
  await expect(row).toContainText('Tenant Staff');

  // Remove: nothing happens until the organiser confirms.
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Withdraw invite' }).click();
  const dialog = page.getByRole('dialog', { name: 'Withdraw invite' });
  await expect(dialog).toContainText(email);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toBeVisible();

  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Withdraw invite' }).click();
  await page.getByTestId('confirm-delete').click();
  await expectToast(page, 'Invite withdrawn', email);
  await expect(row).toHaveCount(0);

  // Gone for good, not just from this page of the list.
  await page.reload();
  await expect(table.getByRole('row').filter({ hasText: ORGANISER.email })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: email })).toHaveCount(0);
});

test("an event's Staff tab lists who works on it, pending or accepted; the volunteer gets a check-in invite and a console in their words (issue 21.14)", async ({ page, browser, baseURL }) => {
  test.setTimeout(150_000);
  const acme = tenantOrigin(baseURL);
  const organiser = await signIn(acme, ORGANISER);
  const event = await givenEventOnSale(organiser, { prefix: 'Staffed Night' });
  const studio = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await logInToConsole(studio, acme, ORGANISER.email);
  await studio.goto(`${acme}/events/${event.eventId}/staff`);
  const table = studio.getByRole('table', { name: 'Event staff' });
  await expect(table.getByRole('heading', { name: 'Nobody works on this event yet' })).toBeVisible();
  await expect(studio.getByText('not shown here yet')).toHaveCount(0);

  // An invite appears at once, pending, with its role; it can be sent again.
  const invited = uniqueEmail('usher');
  const form = studio.getByRole('form', { name: 'Invite staff' });
  await form.getByLabel('Email').fill(invited);
  await expect(form.getByRole('checkbox', { name: 'Event Check-in' })).toBeChecked();
  await form.getByRole('button', { name: 'Send invite' }).click();
  await expectToast(studio, 'Invite sent', invited);
  const pending = table.getByRole('row').filter({ hasText: invited });
  await expect(pending).toContainText('Event Check-in');
  await expect(pending).toContainText('Invite pending');
  await pending.getByRole('button', { name: `Resend the invite to ${invited}` }).click();
  await expectToast(studio, 'Invite sent', `We e-mailed a new invitation to ${invited}.`);

  // A volunteer accepts theirs: listed by name, accepted.
  const volunteer = await givenEventVolunteer(browser, page, baseURL!, organiser, event.eventId, { password: 'Front-door-7!', firstName: 'Dora', lastName: 'Door' });
  await studio.reload();
  const accepted = table.getByRole('row').filter({ hasText: volunteer });
  await expect(accepted).toContainText('Dora Door');
  await expect(accepted).toContainText('Accepted');
  await expect(accepted.getByRole('button', { name: /^Resend/ })).toHaveCount(0);
  await studio.screenshot({ path: '/tmp/console-event-staff-390.png', fullPage: true });
  await studio.setViewportSize({ width: 1280, height: 900 });
  await expect(table.getByRole('columnheader', { name: 'Status', exact: true })).toBeVisible();
  await studio.screenshot({ path: '/tmp/console-event-staff-1280.png', fullPage: true });

  // The invite told the volunteer about the door, not about being an organiser.
  const admin = await signIn(platformOrigin(baseURL), ADMIN);
  const [mail] = await mailsTo(admin, invited);
  expect(mail!.details.subject).toBe(`[Acme Events] Help check in attendees at ${event.name}`);
  expect(mail!.details.text).toContain(`Acme Events invited you to check in attendees at ${event.name} on Marquee.`);

  // The volunteer's console speaks to a volunteer: their events, not how to put one on sale.
  const door = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await logInToConsole(door, acme, volunteer, 'Front-door-7!');
  await door.goto(`${acme}/events`);
  await expect(door.getByText('The events you work on. Open one to check attendees in at the door, or to help run it.')).toBeVisible();
  await expect(door.getByText('Publish an event to put it on sale')).toHaveCount(0);
  await door.screenshot({ path: '/tmp/console-volunteer-events-390.png', fullPage: true });
  await door.setViewportSize({ width: 1280, height: 900 });
  await door.screenshot({ path: '/tmp/console-volunteer-events-1280.png', fullPage: true });
  await organiser.ctx.dispose();
  await admin.ctx.dispose();
});
