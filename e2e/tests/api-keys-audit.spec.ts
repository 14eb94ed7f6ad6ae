import { expect, test } from '@playwright/test';
import { ADMIN, apiContext, expectToast, logInToConsole, ORGANISER, platformOrigin, signIn, tenantOrigin } from './support';

// Issue 25 at phone width: the organiser creates an API key (its secret shown once), an app uses
// it, the console shows its last use, the organiser revokes it (the app is refused), and the audit
// log lists both actions with their actor; the platform's audit log shows every tenant's entries.

const shot = (name: string) => `/tmp/keys-${name}.png`;

test('API keys and the audit log at 390 px', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  const origin = tenantOrigin(baseURL);
  const organiser = await signIn(origin, ORGANISER);
  await logInToConsole(page, origin, ORGANISER.email);

  await page.goto(`${origin}/api-keys`);
  await expect(page.getByRole('heading', { name: 'API Keys', level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Create API Key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API Key' });
  // Bad input: no scope is refused with its message, nothing is created.
  await dialog.getByLabel('Name').fill('Door app');
  await dialog.getByRole('checkbox', { name: 'Read events and reports' }).uncheck();
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByText('Choose at least one scope.')).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'Read events and reports' }).check();
  await dialog.getByRole('checkbox', { name: 'Check-in' }).check();
  await page.screenshot({ path: shot('create-390'), fullPage: true });
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog).toBeHidden();
  const secret = (await page.getByTestId('api-key-secret').textContent())!.trim();
  expect(secret).toMatch(/^mq_/);
  const table = page.getByRole('table', { name: 'API keys' });
  const row = table.getByRole('row').filter({ hasText: 'Door app' });
  await expect(row).toContainText('Never');
  await page.screenshot({ path: shot('keys-390'), fullPage: true });

  // An app uses the key (no cookie, no CSRF token): the console shows its last use.
  const app = await apiContext(origin);
  const read = await app.get(`/api/tenants/${organiser.tenantId}/events`, { headers: { authorization: `Bearer ${secret}` } });
  expect(read.status()).toBe(200);
  await page.reload();
  await expect(row).not.toContainText('Never');
  await expect(page.getByTestId('api-key-secret')).toHaveCount(0);

  // Revoke, after confirming: the app is refused.
  await row.getByRole('button', { name: 'Revoke Door app' }).click();
  await page.getByTestId('confirm-delete').click();
  await expectToast(page, 'API key revoked.');
  await expect(row).toContainText('Revoked');
  const refused = await app.get(`/api/tenants/${organiser.tenantId}/events`, { headers: { authorization: `Bearer ${secret}` } });
  expect(refused.status()).toBe(401);

  // The audit log names the organiser for both.
  await page.goto(`${origin}/audit-log`);
  await expect(page.getByRole('heading', { name: 'Audit Log', level: 2 })).toBeVisible();
  const log = page.getByRole('table', { name: 'Audit log entries' });
  await expect(log.getByRole('row').filter({ hasText: 'API key revoked' }).first()).toContainText(ORGANISER.email);
  await expect(log.getByRole('row').filter({ hasText: 'API key created' }).first()).toContainText(ORGANISER.email);
  await page.screenshot({ path: shot('audit-390'), fullPage: true });
  // Filter by action; open an entry to read what changed.
  await page.getByRole('textbox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'API key revoked' }).click();
  await expect(log.getByRole('row').filter({ hasText: 'API key created' })).toHaveCount(0);
  await log.getByRole('row').filter({ hasText: 'API key revoked' }).first().click();
  const entry = page.getByRole('dialog', { name: 'API key revoked' });
  await expect(entry).toContainText('"revokedAt"');
  await page.screenshot({ path: shot('audit-entry-390') });
  await entry.getByRole('button').first().click();
  const csv = page.getByRole('link', { name: 'Export CSV' });
  await expect(csv).toHaveAttribute('href', /audit-log\/download\?filters=details\.action/);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${origin}/audit-log`);
  await expect(log.getByRole('row').filter({ hasText: 'API key revoked' }).first()).toBeVisible();
  await page.screenshot({ path: shot('audit-1280'), fullPage: true });
  await page.goto(`${origin}/api-keys`);
  await expect(page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'Door app' })).toBeVisible();
  await page.screenshot({ path: shot('keys-1280'), fullPage: true });
});

test("the platform's audit log and API keys", async ({ page, baseURL }) => {
  const origin = platformOrigin(baseURL);
  await page.setViewportSize({ width: 1280, height: 900 });
  await logInToConsole(page, origin, ADMIN.email);
  await page.goto(`${origin}/audit-log`);
  await expect(page.getByRole('heading', { name: 'Audit Log', level: 2 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Audit log entries' }).getByRole('row').filter({ hasText: 'API key created' }).first()).toBeVisible();
  await page.screenshot({ path: shot('platform-audit-1280'), fullPage: true });
  await page.goto(`${origin}/api-keys`);
  await expect(page.getByRole('heading', { name: 'API Keys', level: 2 })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`${origin}/audit-log`);
  await expect(page.getByRole('heading', { name: 'Audit Log', level: 2 })).toBeVisible();
  await page.screenshot({ path: shot('platform-audit-390'), fullPage: true });
});
