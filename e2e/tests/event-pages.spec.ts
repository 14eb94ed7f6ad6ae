import { expect, test, type Request } from '@playwright/test';
import { tenantOrigin } from './support';

// Server-rendered event pages (issue 13): the page arrives with its head and the app's data inline;
// the app starts from that data, asks the API nothing for the event on first load, and works.
test.describe('event pages', () => {
  test('arrive with their head and data, and the app works without fetching the event', async ({ page, baseURL }) => {
    const origin = tenantOrigin(baseURL);
    const apiCalls: string[] = [];
    page.on('request', (req: Request) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/api/')) apiCalls.push(url.pathname);
    });
    const response = await page.goto(`${origin}/summer-jam/`);
    expect(response?.status()).toBe(200);
    const html = await response!.text();
    expect(html).toContain('<meta name="description"');
    expect(html).toContain('<script type="application/ld+json">');
    expect(html).toContain('<script id="mq-boot" type="application/json">');
    await expect(page).toHaveTitle(/Summer Jam/);
    await expect(page.getByTestId('get-tickets')).toBeVisible();
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    expect(ld).toMatchObject({ '@type': 'Event', eventStatus: 'https://schema.org/EventScheduled' });
    expect(ld.offers.length).toBeGreaterThan(0);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: test.info().outputPath('event-home-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: test.info().outputPath('event-home-390.png'), fullPage: true });

    // Into the ticket menu in the app, then a reload of it: it too starts from the inline data.
    await page.getByTestId('get-tickets').click();
    await expect(page).toHaveURL(/\/summer-jam\/tickets$/);
    await expect(page.locator('[data-testid^="ticket-type-"]').first()).toBeVisible();
    apiCalls.length = 0;
    await page.reload();
    await expect(page.locator('[data-testid^="ticket-type-"]').first()).toBeVisible();
    await expect(page).toHaveTitle(/Summer Jam/);
    await page.screenshot({ path: test.info().outputPath('ticket-menu-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: test.info().outputPath('ticket-menu-1280.png'), fullPage: true });
    expect(apiCalls.filter((p) => p.startsWith('/api/p/events/') || p === '/api/site/context')).toEqual([]);
  });

  test('robots.txt and sitemap.xml on the tenant host', async ({ page, baseURL }) => {
    // Through the browser: it resolves acme.localhost as the tests' Node does not.
    const origin = tenantOrigin(baseURL);
    const robots = await page.goto(`${origin}/robots.txt`);
    expect(await robots!.text()).toContain(`Sitemap: ${origin}/sitemap.xml`);
    const sitemap = await page.goto(`${origin}/sitemap.xml`);
    expect(await sitemap!.text()).toContain(`<loc>${origin}/summer-jam/</loc>`);
  });
});
