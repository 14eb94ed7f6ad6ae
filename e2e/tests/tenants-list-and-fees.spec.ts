import { expect, test, type Page } from '@playwright/test';
import { ADMIN, expectToast, givenTenant, logInToConsole, platformOrigin, signIn, type Api } from './support';

// The platform console's Tenants list and fee forms, as an operator uses them: the list keeps its
// search, page size and page across Back and the breadcrumb; the set-up banner of a tenant that
// is deleted ends; the dashboard and the Payment/Payouts tab show what was just changed; a
// required fee setting left empty is refused live (accounts-admin-fees §4, §5, §8, §9).

const BUCKET_STORAGE_KEY = 'tenantBucketRetryTimer';

const adminApi = (origin: string) => signIn(origin, ADMIN);
const createTenantByApi = givenTenant;

async function deleteTenantByApi(api: Api, tenantId: string) {
  const res = await api.ctx.delete(`/api/tenants/${tenantId}`, { headers: { 'x-csrf-token': api.csrf } });
  expect(res.status(), await res.text()).toBe(200);
}

async function createTenantInUi(page: Page, name: string, url: string) {
  await page.getByRole('button', { name: 'Create New Tenant' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Tenant' });
  await create.getByLabel('Tenant Name').fill(name);
  await expect(create.getByLabel('URL')).toHaveValue(url);
  await create.getByLabel('Email').fill(`box-office@${url}.test`);
  await create.getByLabel('Phone').pressSequentially('3125550142');
  await create.getByLabel('Invite Subject').fill(`Join ${name}`);
  await create.getByLabel('Invite Message').fill(`You have been invited to help run ${name}.`);
  await create.getByRole('button', { name: 'Create Tenant' }).click();
  await expect(create).toBeHidden();
}

async function openTenants(page: Page) {
  await page.getByTestId('console-nav').getByRole('link', { name: 'Tenants' }).click();
  await expect(page.getByRole('heading', { name: 'Tenants', level: 2 })).toBeVisible();
}

async function dashboardTenantCount(page: Page): Promise<number> {
  await page.getByTestId('console-nav').getByRole('link', { name: 'Dashboard' }).click();
  const stat = page.getByTestId('stat-tenants');
  await expect(stat).toBeVisible();
  await expect(stat).toContainText(/\d/);
  return Number((await stat.innerText()).replace(/[^0-9]/g, ''));
}

/** Opens the dashboard and waits for its Tenants figure to become `n` (it may show the cached figure while it refetches). */
async function expectDashboardTenants(page: Page, n: number) {
  await page.getByTestId('console-nav').getByRole('link', { name: 'Dashboard' }).click();
  const stat = page.getByTestId('stat-tenants');
  await expect.poll(async () => Number((await stat.innerText()).replace(/[^0-9]/g, ''))).toBe(n);
}

test('the Tenants list keeps its search, page size and page across Back and the breadcrumb', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const origin = platformOrigin(baseURL);
  const tag = Date.now().toString(36);
  const api = await adminApi(origin);
  for (let i = 1; i <= 12; i++) await createTenantByApi(api, `Orchard ${tag} ${String(i).padStart(2, '0')}`, `orchard-${tag}-${i}`);
  await api.ctx.dispose();

  await logInToConsole(page, origin, ADMIN.email);
  await openTenants(page);
  const table = page.getByRole('table', { name: 'Tenants' });
  const range = page.getByTestId('page-range');
  const search = page.getByPlaceholder('Search Tenant');
  const pageSize = page.getByRole('textbox', { name: 'Rows per page' });

  await pageSize.click();
  await page.getByRole('option', { name: '10', exact: true }).click();
  await search.fill(`Orchard ${tag}`);
  await expect(range).toHaveText('1–10 of 12');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(range).toHaveText('11–12 of 12');
  await expect(page).toHaveURL(/[?&]q=Orchard/);

  // Open a tenant, then the browser's Back: the same search, page size and page.
  await table.getByText(`Orchard ${tag} 11`, { exact: true }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`Orchard ${tag} 11`) })).toBeVisible();
  await page.goBack();
  await expect(range).toHaveText('11–12 of 12');
  await expect(search).toHaveValue(`Orchard ${tag}`);
  await expect(pageSize).toHaveValue('10');
  await expect(table.locator('tbody tr')).toHaveCount(2);
  // Previous still works on a restored page.
  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(range).toHaveText('1–10 of 12');

  // The breadcrumb returns to the list as it was left too.
  await table.getByText(`Orchard ${tag} 03`, { exact: true }).click();
  await page.getByRole('tab', { name: 'Fees' }).click();
  await expect(page).toHaveURL(/\/fees$/);
  await page.locator('main').getByRole('link', { name: 'Tenants', exact: true }).click();
  await expect(range).toHaveText('1–10 of 12');
  await expect(search).toHaveValue(`Orchard ${tag}`);

  // The rules of the search stay: clearing shows every tenant again.
  await search.fill('');
  await expect(range).not.toHaveText('1–10 of 12');
  await expect(page).not.toHaveURL(/[?&]q=/);
});

test('the dashboard follows tenants created and deleted; a deleted tenant ends its set-up banner', async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  const origin = platformOrigin(baseURL);
  const tag = Date.now().toString(36);
  const setup = page.getByTestId('bucket-setup');
  const rows = page.getByRole('table', { name: 'Tenants' }).locator('tbody tr');
  const deleteFromRow = async (name: string) => {
    await page.getByPlaceholder('Search Tenant').fill(name);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(name);
    await page.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete tenant' }).click();
    await expectToast(page, 'Tenant deleted', `${name} was deleted.`);
  };

  await logInToConsole(page, origin, ADMIN.email);
  const before = await dashboardTenantCount(page);

  // Created: the dashboard counts it and lists it among New Active Tenants once its site is up.
  await openTenants(page);
  const harbour = `Harbour ${tag}`;
  await createTenantInUi(page, harbour, `harbour-${tag}`);
  await expect(setup).toHaveAttribute('data-phase', 'success', { timeout: 30_000 });
  await expectDashboardTenants(page, before + 1);
  await expect(page.getByText(harbour).first()).toBeVisible();

  // Deleted: the dashboard no longer counts it.
  await openTenants(page);
  await deleteFromRow(harbour);
  await expectDashboardTenants(page, before);

  // A tenant deleted from its row while its banner says it is set up takes the banner with it.
  await openTenants(page);
  const quick = `Quick ${tag}`;
  await createTenantInUi(page, quick, `quick-${tag}`);
  await expect(setup).toHaveAttribute('data-phase', 'success', { timeout: 30_000 });
  await expect(setup).toContainText(`${quick} is set up`);
  await deleteFromRow(quick);
  await expect(setup).toHaveCount(0);

  // Deleted by someone else while its site is still being set up: the next status check answers
  // 404, the timer ends and nothing is left to resume after a reload.
  const lake = `Lake ${tag}`;
  const api = await adminApi(origin);
  await createTenantInUi(page, lake, `lake-${tag}`);
  await expect(setup).toContainText(`Setting up ${lake}`);
  const found = (await (await api.ctx.get(`/api/tenants?filters=details.url=lake-${tag}`)).json()) as { result: { id: string }[] };
  await deleteTenantByApi(api, found.result[0]!.id);
  await api.ctx.dispose();
  await expect(setup).toHaveCount(0, { timeout: 12_000 });
  await expectToast(page, 'Set-up stopped', `${lake} no longer exists.`);
  expect(await page.evaluate((key) => window.sessionStorage.getItem(key), BUCKET_STORAGE_KEY)).toBeNull();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Tenants', level: 2 })).toBeVisible();
  await expect(setup).toHaveCount(0);
  await expectDashboardTenants(page, before);
});

test("an empty 'Round service fees up to' and the tax charges are refused live; saved fees reach Payment/Payouts", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const origin = platformOrigin(baseURL);
  const tag = Date.now().toString(36);
  const api = await adminApi(origin);
  const tenantId = await createTenantByApi(api, `Meadow ${tag}`, `meadow-${tag}`);
  await api.ctx.dispose();
  await logInToConsole(page, origin, ADMIN.email);

  // Global Fees: the required round-up left empty blocks saving with a message.
  await page.getByTestId('console-nav').getByRole('link', { name: 'Global Fees' }).click();
  const form = page.getByRole('form', { name: 'Fee settings' });
  const roundUp = form.getByLabel('Round service fees up to');
  const save = form.getByRole('button', { name: 'Save settings' });
  await expect(roundUp).toHaveValue('$0.01');
  await roundUp.fill('');
  await roundUp.blur();
  await expect(form.getByText('This field is required', { exact: true })).toBeVisible();
  await expect(form.getByText('Fix the highlighted fields to save.')).toBeVisible();
  await expect(save).toBeDisabled();
  await form.getByRole('button', { name: 'Discard changes' }).click();
  await expect(roundUp).toHaveValue('$0.01');

  // An empty Box Office amount does not hide what Charge Tax and Charge Cash Order require.
  await form.getByText('Charge Tax', { exact: true }).click();
  await expect(form.getByText('Tax rate is required.')).toBeVisible();
  await form.getByText('Charge Box Office', { exact: true }).click();
  await form.getByLabel('Charge Box Office amount').fill('');
  await expect(form.getByText('Charge Box Office is required.')).toBeVisible();
  await form.getByText('Charge Cash Order', { exact: true }).click();
  await expect(form.getByText('Tax rate is required.')).toBeVisible();
  await expect(form.getByText('Charge Cash Order is required.')).toBeVisible();
  await form.getByLabel('Tax Rate').fill('8');
  await form.getByLabel('Charge Box Office amount').fill('1');
  await expect(form.getByText('Charge Cash Order is required.')).toBeVisible();
  await expect(save).toBeDisabled();
  await form.getByRole('button', { name: 'Discard changes' }).click();
  await expect(form.getByText('All changes saved.')).toBeVisible();

  // A tenant's Fees: the same rule; and a save shows on the Payment/Payouts tab at once.
  await page.goto(`${origin}/tenant/${tenantId}/payment-settings`);
  await expect(page.getByText('Service fee round-up')).toBeVisible();
  await page.getByRole('tab', { name: 'Fees' }).click();
  await expect(roundUp).toHaveValue('$0.01');
  await roundUp.fill('');
  await roundUp.blur();
  await expect(form.getByText('This field is required', { exact: true })).toBeVisible();
  await expect(save).toBeDisabled();
  await roundUp.fill('0.25');
  await page.getByTestId('pass-along-online').getByLabel('Option 3').check();
  await save.click();
  await expectToast(page, 'Successfully Updated!');
  await page.getByRole('tab', { name: 'Payment/Payouts' }).click();
  const online = page.getByText('Online sales', { exact: true }).locator('..');
  await expect(online).toContainText('The customer pays the service fee only.');
  await expect(page.getByText('Service fee round-up', { exact: true }).locator('..')).toContainText('$0.25');
});
