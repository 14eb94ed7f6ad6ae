import { expect, test } from '@playwright/test';
import { logInToConsole, ORGANISER, tenantOrigin } from './support';

// Issue 15, organisers: a rich description and the preview of a draft, at 1280 and 390 px.
test('the organiser writes a rich description and previews the draft before publishing', async ({ page, baseURL, browser }) => {
  test.setTimeout(120_000);
  const origin = tenantOrigin(baseURL);
  const suffix = Date.now().toString(36);
  const name = `Preview Night ${suffix}`;
  const urlName = `preview-night-${suffix}`;

  await logInToConsole(page, origin, ORGANISER.email);
  await page.goto(`${origin}/events/new`);
  await page.getByLabel(/^Event name/).fill(name);
  const editor = page.getByTestId('rich-text').locator('[contenteditable="true"]');
  await editor.click();
  await page.keyboard.type('Doors at seven. ');
  await page.keyboard.press('Control+b');
  await page.keyboard.type('Bring ID.');
  await page.getByRole('button', { name: 'Create event' }).click();
  await expect(page).toHaveURL(/\/events\/[0-9a-f-]{36}\//);

  const preview = page.getByTestId('view-event-page');
  await expect(preview).toHaveText('Preview event page');
  await expect(preview).toHaveAttribute('href', `${origin}/${urlName}/?preview=1`);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${origin}/${urlName}/?preview=1`);
    await expect(page.getByTestId('preview-banner')).toContainText('Preview: not published');
    await expect(page.getByTestId('event-description').locator('strong')).toHaveText('Bring ID.');
    await expect(page.getByRole('link', { name: /Get Tickets/ })).toHaveCount(0);
    await page.screenshot({ path: `test-results/organiser-preview-${width}.png`, fullPage: true });
  }

  // Nobody else sees the draft.
  const stranger = await browser.newPage();
  await stranger.goto(`${origin}/${urlName}/?preview=1`);
  await expect(stranger.getByRole('heading', { name: 'Event not found' })).toBeVisible();
  await expect(stranger.getByTestId('preview-banner')).toHaveCount(0);
  await stranger.close();
});
