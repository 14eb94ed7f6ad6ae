import { deflateSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { expectToast, logInToConsole, ORGANISER, tenantOrigin } from './support';

// Issue 15, organisers: the event's cover image, uploaded in the console's Details tab, shown in
// the event page's hero at 1280 and 390 px with no layout shift.

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function pngChunk(type: string, data: Buffer) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  let c = 0xffffffff;
  for (const b of body) c = CRC[(c ^ b) & 0xff]! ^ (c >>> 8);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE((c ^ 0xffffffff) >>> 0, 8 + data.length);
  return out;
}

/** A 1600x900 PNG: a teal-to-orange gradient with a dark disc in the middle, as a photo stands in for. */
function coverPng(width = 1600, height = 900): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const t = x / width;
      const inDisc = (x - width / 2) ** 2 + (y - height / 2) ** 2 < (height / 4) ** 2;
      const [r, g, b] = inDisc ? [30, 20, 60] : [Math.round(20 + 220 * t), Math.round(160 - 40 * t + (y / height) * 40), Math.round(170 - 140 * t)];
      row.set([r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The layout shift inside the hero so far: how far the title, dates and button jumped while the page
 * and its cover loaded. (The footer's jump as the client-rendered page first fills is not the cover's;
 * the server-rendered event page removes it.)
 */
const heroShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const hero = document.querySelector('[data-testid="event-name"]')?.closest('section');
        let total = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Array<{ node?: Node }> }>) {
            if (!e.hadRecentInput && e.sources.some((s) => s.node && hero?.contains(s.node))) total += e.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );

/** The cover arrives well after the page has rendered, as on a slow phone: any space not reserved for it would show as a shift. */
async function slowCovers(page: Page) {
  await page.route(/\/assets\/cover-/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
}

test('the organiser uploads a cover image and the event page shows it, at 1280 and 390 px, with no layout shift', async ({ page, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const origin = tenantOrigin(baseURL);
  const suffix = Date.now().toString(36);
  const name = `Lantern Parade ${suffix}`;
  const urlName = `lantern-parade-${suffix}`;

  await page.setViewportSize({ width: 1280, height: 900 });
  await slowCovers(page);
  await logInToConsole(page, origin, ORGANISER.email);
  await page.goto(`${origin}/events/new`);
  await page.getByLabel(/^Event name/).fill(name);
  await page.getByRole('button', { name: 'Create event' }).click();
  await expect(page).toHaveURL(/\/events\/[0-9a-f-]{36}\//);
  await page.getByRole('tab', { name: 'Details' }).click();

  // A text file named .jpg is refused with the server's message; nothing is shown.
  const input = page.getByLabel('Cover image', { exact: true });
  await input.setInputFiles({ name: 'not-a-photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('just some words, no picture at all') });
  await expect(page.getByRole('form', { name: 'Event details' }).getByRole('alert')).toHaveText('Please upload a JPG, PNG or WebP image.');
  await expectToast(page, 'Upload failed', 'Please upload a JPG, PNG or WebP image.');
  await expect(page.getByTestId('cover-preview')).toHaveCount(0);

  await input.setInputFiles({ name: 'lanterns.png', mimeType: 'image/png', buffer: coverPng() });
  const preview = page.getByTestId('cover-preview');
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800);
  await expect(page.getByRole('button', { name: 'Replace' }).first()).toBeVisible();
  const section = page.getByTestId('cover-dropzone');
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('cover-details-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('cover-details-390.png') });

  // The draft's page, previewed by its organiser: the hero shows the cover.
  for (const [width, height] of [
    [390, 844],
    [1280, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`${origin}/${urlName}/?preview=1`);
    const cover = page.getByTestId('event-cover');
    await expect(cover).toBeVisible();
    await expect(cover).toHaveAttribute('alt', name);
    await expect(cover).toHaveAttribute('fetchpriority', 'high');
    await expect(cover).toHaveAttribute('width', '1600');
    await expect(cover).toHaveAttribute('height', '800');
    await expect(cover).toHaveAttribute('srcset', /-hero-800\.webp 800w, .*-hero-1600\.webp 1600w$/);
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const box = (await cover.boundingBox())!;
    expect(Math.abs(box.width / box.height - 2)).toBeLessThan(0.02);
    if (width === 390) {
      // Edge to edge on a phone, above the title.
      expect(Math.round(box.width)).toBe(390);
      const title = (await page.getByTestId('event-name').boundingBox())!;
      expect(title.y).toBeGreaterThan(box.y + box.height);
    }
    expect(await heroShift(page)).toBe(0);
    await page.screenshot({ path: testInfo.outputPath(`cover-event-page-${width}.png`) });
  }

  // Removing it takes it off the page.
  await page.goto(`${origin}/events`);
  await page.getByRole('link', { name, exact: true }).click();
  await page.getByRole('tab', { name: 'Details' }).click();
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  await page.getByRole('dialog', { name: 'Remove cover image' }).getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.getByTestId('cover-preview')).toHaveCount(0);
  await page.goto(`${origin}/${urlName}/?preview=1`);
  await expect(page.getByTestId('event-name')).toHaveText(name);
  await expect(page.getByTestId('event-cover')).toHaveCount(0);
});

test('the demo event shows its seeded cover to everyone, and link previews get the social card', async ({ page, baseURL }, testInfo) => {
  const origin = tenantOrigin(baseURL);
  await slowCovers(page);
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`${origin}/summer-jam/`);
    const cover = page.getByTestId('event-cover');
    await expect(cover).toBeVisible();
    await expect(cover).toHaveAttribute('alt', 'Summer Jam');
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await heroShift(page)).toBe(0);
    await page.screenshot({ path: testInfo.outputPath(`cover-summer-jam-${width}.png`) });
  }
  // What a link preview reads: the served head's og:image, absolute, and the card behind it (no cookie needed).
  const head = await page.evaluate(async () => {
    const html = await (await fetch('/summer-jam/', { headers: { accept: 'text/html' }, credentials: 'omit' })).text();
    const og = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1] ?? '';
    const card = og ? await fetch(og, { credentials: 'omit' }) : null;
    return { og, status: card?.status, type: card?.headers.get('content-type') };
  });
  expect(head.og).toMatch(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/summer-jam/assets/cover-[0-9a-f]{16}-social\\.jpg$`));
  expect(head).toMatchObject({ status: 200, type: 'image/jpeg' });
});
