import { expect, test, type Page } from '@playwright/test';
import { expectToast, logInToConsole, platformOrigin, tenantOrigin } from './support';

// Charities (accounts-admin-fees screens 19 and 20): a platform admin adds a charity; the demo
// tenant's admin enables it and picks it on the demo event, whose public settings then name it;
// disabling it (after the confirmation) takes it off the event; the platform admin deletes it.
// Messages are the spec's, word for word (§5, §8).

const ADMIN = 'admin@marquee.test';
const ORGANISER = 'organiser@acme.test';
const DEMO_EVENT = 'Summer Jam';

/** Types into the list's search box and waits for the debounced search to leave only `name`. */
async function searchFor(page: Page, name: string) {
  await page.getByPlaceholder('Search Charity').fill(name);
  const table = page.getByRole('table', { name: 'Charities' });
  await expect(table.locator('tbody tr').filter({ hasNotText: name })).toHaveCount(0);
  await expect(table.locator('tbody tr').filter({ hasText: name })).toHaveCount(1);
  return table.locator('tbody tr').filter({ hasText: name });
}

/** The demo event's settings as the attendee site reads them (from the page: the tenant host resolves there). */
async function publicSettings(page: Page): Promise<{ charity: { id: string; name: string } | null }> {
  return page.evaluate(async () => (await (await fetch('/api/p/events/summer-jam')).json()).settings);
}

async function openDemoEventDetails(page: Page) {
  await page.getByTestId('console-nav').getByRole('link', { name: 'Events' }).click();
  await page.getByRole('link', { name: DEMO_EVENT, exact: true }).click();
  await expect(page.getByTestId('event-title')).toHaveText(DEMO_EVENT);
  await page.getByRole('tab', { name: 'Details' }).click();
}

test('a platform admin adds a charity, the organiser enables it and picks it for an event, then disables it', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const name = `Harbour Food Bank ${suffix}`;

  // ---- platform console: add the charity -------------------------------------------------------
  const platform = await (await browser.newContext()).newPage();
  await logInToConsole(platform, platformOrigin(baseURL), ADMIN);
  await platform.getByTestId('console-nav').getByRole('link', { name: 'Charities' }).click();
  await expect(platform.getByRole('heading', { name: 'Charities', level: 2 })).toBeVisible();

  await platform.getByRole('button', { name: 'Add Charity' }).click();
  const modal = platform.getByRole('dialog', { name: 'Add Charity' });
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal.getByText('Please enter charity name')).toBeVisible();
  await expect(modal.getByText('This field is required')).toHaveCount(4);
  await expectToast(platform, 'Input Validation Error. Please fix the errors on the inputs first.');

  await modal.getByLabel('Charity name').fill(name);
  await modal.getByLabel('Street').fill('12 Harbour Road');
  await modal.getByLabel('City').fill('Springfield');
  await modal.getByLabel('State').fill('IL');
  // Zip max length 5: the sixth digit is not taken.
  await modal.getByLabel('Zip code').pressSequentially('627015');
  await expect(modal.getByLabel('Zip code')).toHaveValue('62701');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal).toBeHidden();
  await expectToast(platform, 'Charity added successfully');

  const row = await searchFor(platform, name);
  // The badge in the Status column (the one under the address is for phones).
  await expect(row.locator('[data-status="active"]').filter({ visible: true })).toHaveText('Active');
  await expect(row).toContainText('12 Harbour Road, Springfield, IL 62701');

  // ---- tenant console: enable it and pick it on the demo event ---------------------------------
  const origin = tenantOrigin(baseURL);
  const page = await (await browser.newContext()).newPage();
  await logInToConsole(page, origin, ORGANISER);
  await page.getByTestId('console-nav').getByRole('link', { name: 'Charities' }).click();
  await expect(page.getByRole('heading', { name: 'Charities', level: 2 })).toBeVisible();
  const tenantRow = await searchFor(page, name);
  const toggle = page.getByRole('switch', { name: `Enable ${name}` });
  await expect(toggle).not.toBeChecked();
  await tenantRow.locator('.mantine-Switch-track').click();
  await expectToast(page, 'Update Success', 'Tenant Charity list has been updated successfully');
  await expect(toggle).toBeChecked();

  await openDemoEventDetails(page);
  const charity = page.getByRole('textbox', { name: 'Charity that receives donations' });
  await charity.click();
  await page.getByRole('option', { name, exact: true }).click();
  await expect(charity).toHaveValue(name);
  await page.getByTestId('save-event').click();
  await expect(page.getByText('All changes saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Charity that receives donations' })).toHaveValue(name);

  // The attendee site's event settings name the charity.
  expect((await publicSettings(page)).charity).toMatchObject({ name });
  // and the event page tells attendees about it.
  const attendee = await page.context().newPage();
  await attendee.goto(`${tenantOrigin(baseURL)}/summer-jam/`);
  await expect(attendee.getByTestId('event-charity')).toContainText(name);
  await attendee.close();

  // ---- disable it: the confirmation warns about the event's dropdown, then the event loses it ---
  await page.getByTestId('console-nav').getByRole('link', { name: 'Charities' }).click();
  await (await searchFor(page, name)).locator('.mantine-Switch-track').click();
  const confirm = page.getByRole('dialog', { name: 'Disable charity' });
  await expect(confirm).toContainText("removes it from the charity dropdown on your events' ticket settings page");
  await confirm.getByRole('button', { name: 'Disable' }).click();
  await expectToast(page, 'Disable Success', 'Charity disabled successfully');
  await expect(page.getByRole('switch', { name: `Enable ${name}` })).not.toBeChecked();

  await openDemoEventDetails(page);
  await expect(page.getByRole('textbox', { name: 'Charity that receives donations' })).toHaveValue('');
  await page.getByRole('textbox', { name: 'Charity that receives donations' }).click();
  await expect(page.getByRole('option', { name, exact: true })).toHaveCount(0);
  expect((await publicSettings(page)).charity).toBeNull();

  // ---- platform console: delete it -------------------------------------------------------------
  await platform.getByRole('button', { name: `Actions for ${name}` }).click();
  await platform.getByRole('menuitem', { name: 'Delete' }).click();
  const del = platform.getByRole('dialog', { name: 'Delete Charity' });
  await expect(del).toContainText('Are you sure you want to delete this Charity?');
  await del.getByTestId('confirm-delete').click();
  await expectToast(platform, 'Charity removed successfully');
  await expect(platform.getByRole('table', { name: 'Charities' }).getByText(name)).toHaveCount(0);
});
