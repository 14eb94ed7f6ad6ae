import { expect, test } from '@playwright/test';
import { platformOrigin } from './support';

// The unlock link mailed when too many wrong codes locked an account (issue 21): opening it only
// shows a page that asks; nothing is sent until the person presses the button, which POSTs.

test('the unlock link opens a page that asks first and POSTs only on the button', async ({ page, baseURL }) => {
  const origin = platformOrigin(baseURL);
  const writes: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/api/')) writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  await page.setViewportSize({ width: 390, height: 844 });
  const link = `${origin}/unlock?${new URLSearchParams({ username: 'locked@example.test', token: 'x'.repeat(43) })}`;
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Unlock your account' })).toBeVisible();
  await expect(page.getByText('Too many wrong codes were entered for locked@example.test')).toBeVisible();
  await page.screenshot({ path: '/tmp/console-unlock-390.png', fullPage: true });
  // An older link to the API lands on the same page, and neither changed anything.
  await page.goto(`${origin}/api/auth/unlock?${new URLSearchParams({ username: 'locked@example.test', token: 'x'.repeat(43) })}`);
  await expect(page).toHaveURL(link);
  await expect(page.getByRole('button', { name: 'Unlock my account' })).toBeVisible();
  expect(writes.filter((w) => w.includes('/unlock'))).toEqual([]);

  await page.getByRole('button', { name: 'Unlock my account' }).click();
  await expect(page.getByRole('alert')).toContainText('This unlock link is invalid, was already used or has expired.');
  expect(writes.filter((w) => w.includes('/unlock'))).toEqual(['POST /api/auth/unlock']);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: '/tmp/console-unlock-1280.png', fullPage: true });

  // A link cut short says so.
  await page.goto(`${origin}/unlock?username=locked%40example.test`);
  await expect(page.getByText('This link is incomplete')).toBeVisible();
});
