import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, expectToast, givenEventOnSale, logInToConsole, ORGANISER, platformOrigin, signIn, tenantOrigin } from './support';

// Outgoing webhooks (issue 25) on a phone: the organiser adds an endpoint (a receiver running in
// this test, allowed on loopback by WEBHOOKS_ALLOW_PRIVATE), copies its secret, sees the delivery
// of a published event in the log, and sends it again by hand.

test('an organiser adds a webhook endpoint on a phone, sees a delivery in its log and redelivers it', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const received: Array<{ type: string; id: string }> = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { type: string };
      received.push({ type: parsed.type, id: String(req.headers['webhook-id']) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/marquee-hooks`;
  try {
    const origin = tenantOrigin(baseURL);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logInToConsole(page, origin, ORGANISER.email, ORGANISER.password);
    await page.goto(`${origin}/settings/webhooks`);
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();

    await page.getByRole('button', { name: 'Add endpoint' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    await dialog.getByLabel('Endpoint URL').fill('not an address');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog.getByText('Enter a full address, such as https://example.com/webhooks.')).toBeVisible();
    await dialog.getByLabel('Endpoint URL').fill(url);
    await dialog.getByLabel('Description').fill('Box office CRM');
    await dialog.getByRole('checkbox', { name: /Event published/ }).check();
    await shot(page, 'add-390');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expectToast(page, 'Endpoint added. Copy its signing secret now: it is not shown again.');
    await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
    await shot(page, 'secret-390');
    await page.getByRole('button', { name: 'Done' }).click();

    // An event published by the organiser reaches the receiver and shows in the log.
    const organiser = await signIn(origin, ORGANISER);
    await givenEventOnSale(organiser, { prefix: 'Hooked' });
    await expect.poll(() => received.filter((r) => r.type === 'event.published').length, { timeout: 20_000 }).toBe(1);
    await expect(page.getByText('Box office CRM')).toBeVisible();
    await shot(page, 'endpoints-390');
    await page.getByRole('button', { name: 'Delivery log' }).first().click();
    const log = page.getByRole('dialog', { name: 'Delivery log' });
    await expect(log.getByText('Delivered').first()).toBeVisible();
    await expect(log.getByText(/HTTP 200/).first()).toBeVisible();
    await log.getByRole('button', { name: 'Show details' }).first().click();
    await expect(log.getByText('"event.published"').first()).toBeVisible();
    await shot(page, 'log-390');
    await log.getByRole('button', { name: 'Redeliver' }).first().click();
    await expectToast(page, 'Delivery queued again.');
    await expect.poll(() => received.filter((r) => r.type === 'event.published').length, { timeout: 20_000 }).toBe(2);
    expect(received[1]!.id).toBe(received[0]!.id);

    // The same screens on a desktop.
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, 'log-1280');
    await page.keyboard.press('Escape');
    await shot(page, 'endpoints-1280');
    await context.close();
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test('an operator adds a platform endpoint, for every tenant’s events', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const origin = platformOrigin(baseURL);
  await logInToConsole(page, origin, ADMIN.email, ADMIN.password);
  await page.goto(`${origin}/settings/webhooks`);
  await expect(page.getByText("The platform's endpoints receive the chosen events of every tenant.", { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Add endpoint' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
  await dialog.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/platform-hooks');
  await dialog.getByRole('checkbox', { name: /Payout completed/ }).check();
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('http://127.0.0.1:9/platform-hooks')).toBeVisible();
  await shot(page, 'platform-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, 'platform-1280');
  await context.close();
});

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/hooks-${name}.png`, fullPage: false });
}
