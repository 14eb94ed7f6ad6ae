import { expect, test } from '@playwright/test';
import { expectToast, logInToConsole, ORGANISER, tenantOrigin, uniqueEmail } from './support';

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
