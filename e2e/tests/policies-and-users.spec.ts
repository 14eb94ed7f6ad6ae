import { M } from '@marquee/core';
import { expect, test } from '@playwright/test';
import { ADMIN, expectToast, logInToConsole, platformOrigin, uniqueEmail } from './support';

// The platform console's Global Policies and Platform Users pages (issue 3): add a policy, the
// duplicate-id refusal, Save enabled only once the form changed, delete after confirming; invite a
// platform user, narrow their roles, delete them.

test('a platform admin adds, edits and deletes a global policy; a duplicate id is refused', async ({ page, baseURL }) => {
  const id = `e2e-refund-${Date.now().toString(36)}`;
  await logInToConsole(page, platformOrigin(baseURL), ADMIN.email);
  await page.getByTestId('console-nav').getByRole('link', { name: 'Policies' }).click();
  await expect(page.getByRole('heading', { name: 'Global Policies', level: 2 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Global policies' });

  // Add Policy: Save stays disabled until something is typed.
  await page.getByRole('button', { name: 'Add Policy' }).click();
  const add = page.getByRole('form', { name: 'Add Policy' });
  await expect(add.getByRole('button', { name: 'Save' })).toBeDisabled();
  await add.getByLabel('Policy ID').fill(id);
  await add.getByLabel('Name').fill('Festival Refund Policy');
  await add.getByLabel('Group').fill('checkout');
  await add.getByLabel('Type').fill('refund');
  await add.getByTestId('rich-text').locator('[contenteditable="true"]').fill('Refunds up to 7 days before the event.');
  await add.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Policy created', 'Festival Refund Policy was added.');
  await expect(add).toBeHidden();
  const row = table.getByRole('row').filter({ hasText: id });
  await expect(row).toContainText('Festival Refund Policy');

  // The same id again: the spec's message, on the field and as a toast; the modal stays open.
  await page.getByRole('button', { name: 'Add Policy' }).click();
  await add.getByLabel('Policy ID').fill(id);
  await add.getByLabel('Name').fill('Another');
  await add.getByLabel('Group').fill('checkout');
  await add.getByLabel('Type').fill('refund');
  await add.getByTestId('rich-text').locator('[contenteditable="true"]').fill('Something else.');
  await add.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, M.policyDuplicate);
  await expect(add.getByText(M.policyDuplicate)).toBeVisible();
  await add.getByRole('button', { name: 'Cancel' }).click();
  await expect(add).toBeHidden();
  await expect(table.getByRole('row').filter({ hasText: id })).toHaveCount(1);

  // Edit: the id is fixed, Save waits for a change; the new name is listed.
  await page.getByRole('button', { name: `Actions for ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('form', { name: 'Edit Policy' });
  await expect(edit.getByLabel('Policy ID')).toBeDisabled();
  await expect(edit.getByLabel('Name')).toHaveValue('Festival Refund Policy');
  await expect(edit.getByTestId('rich-text')).toContainText('Refunds up to 7 days before the event.');
  await expect(edit.getByRole('button', { name: 'Save' })).toBeDisabled();
  await edit.getByLabel('Name').fill('Festival Refunds');
  await expect(edit.getByRole('button', { name: 'Save' })).toBeEnabled();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Policy updated', 'Festival Refunds was saved.');
  await expect(row).toContainText('Festival Refunds');

  // Delete, after confirming; gone after a reload too.
  await page.getByRole('button', { name: `Actions for ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByTestId('confirm-delete').click();
  await expectToast(page, 'Policy deleted', 'Festival Refunds was deleted.');
  await expect(row).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Global Policies', level: 2 })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: id })).toHaveCount(0);
});

test('a super user invites a platform user, narrows their roles and deletes them', async ({ page, baseURL }) => {
  const email = uniqueEmail('operator');
  await logInToConsole(page, platformOrigin(baseURL), ADMIN.email);
  await page.getByTestId('console-nav').getByRole('link', { name: 'Platform Users' }).click();
  await expect(page.getByRole('heading', { name: 'Platform Users', level: 2 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Platform users' });

  // Send Platform Invite: the role is fixed to Platform Admin.
  await page.getByRole('button', { name: 'Add Platform User' }).click();
  const invite = page.getByRole('form', { name: 'Send Platform Invite' });
  await expect(invite.getByLabel('Role')).toHaveValue('Platform Admin');
  await expect(invite.getByLabel('Role')).toBeDisabled();
  await invite.getByLabel('Email').fill(email);
  await invite.getByRole('button', { name: 'Send Invite' }).click();
  await expectToast(page, 'Invite sent', email);

  const row = table.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Invited');
  await expect(row).toContainText('Platform Admin');
  await expect(row).toContainText('Pending Verification');

  // Edit Platform User: all four roles checked; keep only Platform Report.
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Edit Platform User' }).click();
  const edit = page.getByRole('form', { name: 'Edit Platform User' });
  await expect(edit.getByText('This person has not signed up yet')).toBeVisible();
  await expect(edit.getByRole('button', { name: 'Save' })).toBeDisabled();
  for (const role of ['Super User', 'Platform Manager', 'Platform User']) await edit.getByRole('checkbox', { name: role }).uncheck();
  await expect(edit.getByRole('checkbox', { name: 'Platform Report' })).toBeChecked();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Platform user updated', `${email} was updated.`);
  await expect(edit).toBeHidden();
  await expect(row).toContainText('Platform Report');
  await expect(row).not.toContainText('Platform Admin');

  // Reopened, the modal shows what was saved, not what was there before.
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Edit Platform User' }).click();
  await expect(edit.getByRole('checkbox', { name: 'Platform Report' })).toBeChecked();
  await expect(edit.getByRole('checkbox', { name: 'Super User' })).not.toBeChecked();
  await edit.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByTestId('confirm-delete').click();
  await expectToast(page, 'User deleted', email);
  await expect(row).toHaveCount(0);
});
