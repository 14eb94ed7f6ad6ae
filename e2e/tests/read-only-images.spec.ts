import { expect, test } from '@playwright/test';
import { logInToConsole, makePng, ORGANISER, send, signIn, tenantOrigin, type Api } from './support';

// An event read-only for the viewer (here: cancelled) shows its cover and seat map as pictures, or a
// plain "No cover image." / "No seat map.", with nothing to drop on or click; on a 390 px phone too.

async function cancelledEvent(organiser: Api, name: string, images: boolean): Promise<string> {
  const base = `/api/tenants/${organiser.tenantId}/events`;
  const event = await send<{ id: string }>(organiser, base, { name, startDateTime: '2031-09-12T20:00:00-04:00' });
  if (images) {
    for (const [path, buffer] of [
      ['cover', makePng(800, [40, 90, 160])],
      ['seatmap', makePng(64, [200, 160, 60])],
    ] as const) {
      const res = await organiser.ctx.post(`${base}/${event.id}/${path}`, {
        multipart: { file: { name: `${path}.png`, mimeType: 'image/png', buffer } },
        headers: { 'x-csrf-token': organiser.csrf },
      });
      expect(res.ok(), await res.text()).toBeTruthy();
    }
  }
  await send(organiser, `${base}/${event.id}/cancel`);
  return event.id;
}

test("a cancelled event's cover and seat map are shown read-only, at 390 and 1280 px", async ({ browser, baseURL }, testInfo) => {
  const origin = tenantOrigin(baseURL);
  const organiser = await signIn(origin, ORGANISER);
  const suffix = Date.now().toString(36);
  const withImages = await cancelledEvent(organiser, `Called Off ${suffix}`, true);
  const bare = await cancelledEvent(organiser, `Never Pictured ${suffix}`, false);

  const page = await (await browser.newContext()).newPage();
  await logInToConsole(page, origin, ORGANISER.email);
  for (const [width, height] of [
    [390, 844],
    [1280, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`${origin}/events/${withImages}/details`);
    for (const id of ['cover', 'seatmap']) {
      const field = page.getByTestId(`${id}-readonly`);
      await field.scrollIntoViewIfNeeded();
      // The picture itself loads for the event's staff (never published, so not public).
      const img = page.getByTestId(`${id}-preview`);
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    }
    await expect(page.getByTestId('cover-dropzone')).toHaveCount(0);
    await expect(page.getByTestId('seatmap-dropzone')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Replace' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Remove' })).toHaveCount(0);
    await expect(page.locator('input[type="file"]')).toHaveCount(0);
    await page.getByTestId('cover-readonly').scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`read-only-images-${width}.png`) });

    await page.goto(`${origin}/events/${bare}/details`);
    await expect(page.getByTestId('cover-readonly')).toHaveText('No cover image.');
    await expect(page.getByTestId('seatmap-readonly')).toHaveText('No seat map.');
    await expect(page.locator('input[type="file"]')).toHaveCount(0);
    await page.getByTestId('cover-readonly').scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`read-only-no-images-${width}.png`) });
  }
});
