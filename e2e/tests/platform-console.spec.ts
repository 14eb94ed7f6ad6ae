import { expect, test, type Browser, type Page } from '@playwright/test';
import { logInToConsole, platformOrigin, tenantOrigin } from './support';

// The platform console (issue 3): a platform admin creates a tenant and watches its site being set
// up, finds it by search, edits its info, creates a surcharge rule, makes it the default and sees
// that the default rule cannot be deleted; a tenant admin sees fees read-only until the platform
// allows editing. Messages are the spec's, word for word (accounts-admin-fees §8).

const ADMIN = 'admin@marquee.test';
const ORGANISER = 'organiser@acme.test';
const DEFAULT_RULE_DELETE =
  'This is currently set as the default surcharge rule. Please select a different rule as the default surcharge rule before deleting this rule.';

async function openRowMenu(page: Page, name: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
}

test('a platform admin creates a tenant, finds it, edits it and manages its surcharge rules', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const origin = platformOrigin(baseURL);
  const suffix = Date.now().toString(36);
  const name = `Lakeside Arts ${suffix}`;
  const url = `lakeside-arts-${suffix}`;

  await logInToConsole(page, origin, ADMIN);
  await page.getByTestId('console-nav').getByRole('link', { name: 'Tenants' }).click();
  await expect(page.getByRole('heading', { name: 'Tenants', level: 2 })).toBeVisible();

  // Create New Tenant: every field is required (spec §5), the URL follows the name.
  await page.getByRole('button', { name: 'Create New Tenant' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Tenant' });
  await create.getByRole('button', { name: 'Create Tenant' }).click();
  await expect(create.getByText('Tenant name is required.')).toBeVisible();
  await expect(create.getByText('Email is required.')).toBeVisible();
  await expect(create.getByText('Phone number is required.')).toBeVisible();
  await expect(create.getByText('Subject is required.')).toBeVisible();
  await expect(create.getByText('Message is required.')).toBeVisible();

  await create.getByLabel('Tenant Name').fill(`${name}!`);
  await expect(create.getByLabel('URL')).toHaveValue(url);
  await create.getByLabel('Tenant Name').fill(name);
  await expect(create.getByLabel('URL')).toHaveValue(url);
  await create.getByLabel('Email').fill(`box-office-${suffix}@lakeside.test`);
  await create.getByLabel('Phone').pressSequentially('3125550142');
  await expect(create.getByLabel('Phone')).toHaveValue('+1 (312) 555 0142');
  await create.getByLabel('Invite Subject').fill('Join Lakeside Arts on Marquee');
  await create.getByLabel('Invite Message').fill('You have been invited to help run Lakeside Arts.');
  await create.getByRole('button', { name: 'Create Tenant' }).click();
  await expect(create).toBeHidden();

  // Success names the tenant and shows its id and URL; then the site set-up runs to the end.
  const toast = page.locator('.mantine-Notification-root', { hasText: `${name} created` });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Tenant ID:');
  await expect(toast).toContainText(`${url}.`);
  const setup = page.getByTestId('bucket-setup');
  await expect(setup).toBeVisible();
  await expect(setup).toHaveAttribute('data-phase', 'running');
  await expect(setup).toHaveAttribute('data-phase', 'success', { timeout: 30_000 });
  await expect(page.getByText('Create Bucket Successful').first()).toBeVisible();

  // Search Tenant: applied after the debounce, from three characters.
  await page.getByPlaceholder('Search Tenant').fill(name);
  const rows = page.getByRole('table', { name: 'Tenants' }).locator('tbody tr');
  await expect(rows).toHaveCount(1, { timeout: 10_000 });
  await expect(rows.first()).toContainText(name);
  await expect(rows.first()).toContainText('Active');

  // Tenant detail: edit phone and the invite subject.
  await rows.first().getByText(name, { exact: true }).click();
  await expect(page).toHaveURL(/\/tenant\/[0-9a-f-]+\/info$/);
  await expect(page.getByRole('heading', { name: new RegExp(name) })).toBeVisible();
  const info = page.getByRole('form', { name: 'Tenant Basic Information' });
  await info.getByLabel('Invite Subject').fill('');
  await info.getByLabel('Invite Message').click();
  await expect(info.getByText('This field is required')).toBeVisible();
  await info.getByLabel('Invite Subject').fill('Welcome to the Lakeside Arts team');
  const phone = info.getByLabel('Phone');
  await phone.click();
  await phone.press('ControlOrMeta+a');
  await phone.press('Backspace');
  await phone.pressSequentially('3125550199');
  await expect(phone).toHaveValue('+1 (312) 555 0199');
  await info.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Successfully updated')).toBeVisible();
  await expect(info.getByRole('button', { name: 'Save' })).toBeDisabled();
  await page.reload();
  await expect(info.getByLabel('Invite Subject')).toHaveValue('Welcome to the Lakeside Arts team');
  await expect(info.getByLabel('Phone')).toHaveValue('+1 (312) 555 0199');

  // Its fees: a new surcharge rule, made the default, then refused deletion.
  await page.getByRole('tab', { name: 'Fees' }).click();
  await expect(page).toHaveURL(/\/fees$/);
  await page.getByRole('button', { name: 'Add Surcharge Rule' }).click();
  const ruleModal = page.getByRole('dialog', { name: 'New Surcharge Rule' });
  await ruleModal.getByRole('button', { name: 'Create Rule' }).click();
  await expect(ruleModal.getByText('Surcharge Rule Name is Required')).toBeVisible();
  await ruleModal.getByLabel('Surcharge Rule Name').fill('Festival Fee');
  await ruleModal.getByLabel(/^Service Fee \(%\)/).fill('3.5');
  await ruleModal.getByLabel(/^Service Fee \(flat rate\)/).fill('1.25');
  await ruleModal.getByLabel('POS Service Fee (%)').fill('0');
  await ruleModal.getByLabel('POS Service Fee (flat rate)').fill('0');
  await ruleModal.getByRole('button', { name: 'Create Rule' }).click();
  await expect(page.getByText('Success. New Surcharge Created!')).toBeVisible();
  const rules = page.getByRole('table', { name: 'Surcharge Rules' });
  const festival = rules.locator('tbody tr', { hasText: 'Festival Fee' });
  await expect(festival).toContainText('3.5% + $1.25');
  await expect(festival.getByTestId('default-badge')).toHaveCount(0);

  await openRowMenu(page, 'Festival Fee');
  await page.getByRole('menuitem', { name: 'Make default' }).click();
  await expect(page.getByText('Successfully Updated!')).toBeVisible();
  await expect(festival.getByTestId('default-badge')).toBeVisible();
  // The default rule cannot be switched off; the former default now can.
  await expect(festival.getByRole('switch')).toBeDisabled();
  await expect(rules.locator('tbody tr', { hasText: 'Standard Service Fee' }).getByRole('switch')).toBeEnabled();

  await openRowMenu(page, 'Festival Fee');
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(page.getByText('Failed to Delete Surcharge Rule')).toBeVisible();
  await expect(page.getByText(DEFAULT_RULE_DELETE)).toBeVisible();
  await expect(festival).toBeVisible();
});

async function setTenantFeesControl(browser: Browser, baseURL: string | undefined, on: boolean) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logInToConsole(page, platformOrigin(baseURL), ADMIN);
  await page.getByTestId('console-nav').getByRole('link', { name: 'Tenants' }).click();
  await page.getByRole('table', { name: 'Tenants' }).getByText('Acme Events', { exact: true }).click();
  await page.getByRole('tab', { name: 'Fees' }).click();
  const control = page.getByRole('switch', { name: 'Allow Tenant to Edit Fees Settings' });
  await expect(control).toBeEnabled();
  if ((await control.isChecked()) !== on) {
    await page.getByText('Allow Tenant to Edit Fees Settings', { exact: true }).click();
    await expect(page.getByText('Successfully Updated!')).toBeVisible();
  }
  await expect(control).toBeChecked({ checked: on });
  await context.close();
}

test('a tenant admin sees fees read-only until the platform allows editing', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  await setTenantFeesControl(browser, baseURL, false);

  const origin = tenantOrigin(baseURL);
  await logInToConsole(page, origin, ORGANISER);
  await page.getByTestId('console-nav').getByRole('link', { name: 'Fees' }).click();
  await expect(page.getByRole('heading', { name: 'Fees', level: 2 })).toBeVisible();
  await expect(page.getByTestId('fees-read-only')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Surcharge Rule' })).toHaveCount(0);
  await expect(page.getByLabel('Platform Fee')).toBeDisabled();
  await expect(page.getByLabel('Processing Fee')).toBeDisabled();
  await expect(page.getByLabel('Maximum Complimentary Tickets')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save settings' })).toHaveCount(0);

  try {
    await setTenantFeesControl(browser, baseURL, true);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Fees', level: 2 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Surcharge Rule' })).toBeVisible();
    await expect(page.getByTestId('fees-read-only')).toHaveCount(0);
    await expect(page.getByLabel('Platform Fee')).toBeEnabled();
    await expect(page.getByLabel('Processing Fee')).toBeEnabled();
  } finally {
    await setTenantFeesControl(browser, baseURL, false);
  }
});

test('a tenant admin whose fees permission is withdrawn while editing gets the read-only page after the refused save', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  try {
    await setTenantFeesControl(browser, baseURL, true);
    await logInToConsole(page, tenantOrigin(baseURL), ORGANISER);
    await page.getByTestId('console-nav').getByRole('link', { name: 'Fees' }).click();
    const donation = page.getByLabel('Donation Service Fee');
    await expect(donation).toBeEnabled();
    const saved = await donation.inputValue();

    // The platform switches 'Allow Tenant to Edit Fees Settings' off while the page is open.
    await setTenantFeesControl(browser, baseURL, false);
    await donation.fill('12');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Updating Fees Settings Failed')).toBeVisible();
    await expect(page.getByText('The platform has not allowed this tenant to edit its fees settings.')).toBeVisible();

    // The settings are read again: view-only, showing what is saved.
    await expect(page.getByTestId('fees-read-only')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Discard changes' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add Surcharge Rule' })).toHaveCount(0);
    await expect(donation).toBeDisabled();
    await expect(donation).toHaveValue(saved);
  } finally {
    await setTenantFeesControl(browser, baseURL, false);
  }
});
