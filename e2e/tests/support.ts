import { deflateSync } from 'node:zlib';
import { expect, type Browser, type Page } from '@playwright/test';

export const ADMIN = { email: 'admin@marquee.test', password: 'Marquee-Admin-1' };

/** A unique address per run, so the tests can run twice against one database. */
export const uniqueEmail = (name: string) => `${name}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG (a solid square in the given colour), made here so the test needs no fixture file. */
export function makePng(size = 32, [r, g, b] = [91, 60, 196]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3).map((_, i) => [r, g, b][i % 3]!)]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** A toast with this title (and message, when given) is on screen. */
export async function expectToast(page: Page, title: string, message?: string) {
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: title });
  await expect(toast.first()).toBeVisible();
  if (message) await expect(toast.filter({ hasText: message }).first()).toBeVisible();
}

/**
 * The platform admin, in a browser context of their own, opens the latest message to `to` on the
 * Outbox page and returns the first link in it whose path is `path`.
 */
export async function linkFromOutbox(browser: Browser, baseURL: string, to: string, path: string): Promise<URL> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  try {
    await logIn(page, ADMIN.email, ADMIN.password);
    await expect(page.getByTestId('console-nav')).toBeVisible();
    await page.getByTestId('console-nav').getByRole('link', { name: 'Outbox' }).click();
    await expect(page.getByRole('heading', { name: 'Outbox' })).toBeVisible();
    await page.getByPlaceholder('Search by recipient').fill(to);
    // The search applies after the 1600 ms debounce: wait until the table shows only that address.
    // Newest first, so the first row is the latest message.
    const table = page.getByRole('table', { name: 'Outbox messages' });
    await expect(table.locator('tbody tr').first()).toContainText(to);
    await expect(table.locator('tbody tr').filter({ hasNotText: to })).toHaveCount(0);
    await table.getByRole('button', { name: `View message to ${to}` }).first().click();
    const text = page.getByTestId('mail-text');
    await expect(text).toBeVisible();
    const hrefs = await text.getByRole('link').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    const link = hrefs.map((h) => new URL(h)).find((u) => u.pathname === path);
    expect(link, `a ${path} link in the mail to ${to}`).toBeDefined();
    return link!;
  } finally {
    await context.close();
  }
}

/** The demo organiser: the demo tenant acme's admin. */
export const ORGANISER = { email: 'organiser@acme.test', password: 'Marquee-Admin-1' };

/** The platform console's origin on the server under test. */
export function platformOrigin(baseURL: string | undefined): string {
  return new URL(baseURL ?? process.env.E2E_BASE_URL ?? 'http://localhost:3000').origin;
}

/** The demo tenant's host on the server under test: acme.{platform host}:{port}. */
export function tenantOrigin(baseURL: string | undefined): string {
  const base = new URL(platformOrigin(baseURL));
  return `${base.protocol}//acme.${base.hostname}${base.port ? `:${base.port}` : ''}`;
}

/** Logs in on that origin's console and waits for its navigation. */
export async function logInToConsole(page: Page, origin: string, email: string, password = ADMIN.password) {
  await page.goto(`${origin}/login`);
  await page.getByLabel('Email').fill(email);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('console-nav')).toBeVisible();
}
