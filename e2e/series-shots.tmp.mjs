// Temporary screenshot script (not committed): console and public series pages at 1280 and 390 px.
import { chromium } from '@playwright/test';
const origin = process.env.ORIGIN ?? 'http://acme.localhost:3501';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const width of [1280, 390]) {
  const ctx = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, deviceScaleFactor: 1 });
  const page = await ctx.newPage();
  await page.goto(`${origin}/login`);
  await page.getByLabel('Email').fill('organiser@acme.test');
  await page.locator('input[autocomplete="current-password"]').fill('Marquee-Admin-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByTestId('console-nav').waitFor({ state: 'attached' });
  await page.goto(`${origin}/event-series`);
  await page.getByText('Harbour Walking Tour').first().waitFor();
  await page.screenshot({ path: `/tmp/series-shots/series-list-${width}.png`, fullPage: true });
  await page.getByRole('link', { name: 'Harbour Walking Tour' }).first().click();
  await page.getByTestId('series-date').first().waitFor();
  await page.screenshot({ path: `/tmp/series-shots/series-detail-${width}.png`, fullPage: true });
  await page.goto(`${origin}/event-series/new`);
  await page.waitForTimeout(3000);
  await page.screenshot({ path: `/tmp/series-shots/series-editor-raw-${width}.png`, fullPage: true });
  await page.getByRole('textbox', { name: /^Name/ }).first().fill('Museum timed entry');
  await page.getByText('Timed entry: split each day into slots').click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/series-shots/series-editor-${width}.png`, fullPage: true });
  await page.goto(`${origin}/series/harbour-walk`);
  await page.screenshot({ path: `/tmp/series-shots/series-public-${width}.png`, fullPage: true });
  await ctx.close();
}
await browser.close();
