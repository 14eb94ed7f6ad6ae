import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, apiContext, buy, givenEventOnSale, ORGANISER, platformOrigin, signIn, tenantOrigin, waitForMail } from './support';

// Issue 28: "Add to Apple Wallet" and "Add to Google Wallet" on the order link at 390 px, on the
// server the browser tests run against (its config gives it throwaway wallet certificates); and on a
// second server started here without them, neither button. Screenshots of the order link and of the
// tickets mail at 390 and 1280 px go to E2E_SHOTS.

const shots = process.env.E2E_SHOTS ?? '/tmp/e2e-wallet-shots';

async function screenshots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

/** Buys two tickets on that server at 390 px and opens the order link from the tickets mail. */
async function buyAndOpenOrderLink(page: Page, baseURL: string) {
  const organiser = await signIn(tenantOrigin(baseURL), ORGANISER);
  const admin = await signIn(platformOrigin(baseURL), ADMIN);
  try {
    const event = await givenEventOnSale(organiser, { prefix: 'Harbour Lights' });
    const email = `wallet.${Date.now().toString(36)}@example.com`;
    await page.setViewportSize({ width: 390, height: 844 });
    await buy(page, tenantOrigin(baseURL), event.urlName, email, { count: 2 });
    const mail = await waitForMail(admin, email, (s) => s.startsWith('Your tickets'));
    const link = /https?:\/\/\S+\/orders\/[A-Za-z0-9_-]{43}/.exec(mail.details.text)![0];
    await page.goto(link);
    await expect(page.getByTestId('order-link-ticket')).toHaveCount(2);
    return { mail: mail as typeof mail & { details: { html: string } }, link, organiser, admin };
  } catch (err) {
    await organiser.ctx.dispose();
    await admin.ctx.dispose();
    throw err;
  }
}

test('with wallets set up, each ticket on the order link has both buttons at 390 px; they give a .pkpass and a Google save link; so does the mail', async ({ page, baseURL }) => {
  const { mail, organiser, admin } = await buyAndOpenOrderLink(page, baseURL!);
  try {
    const apple = page.getByTestId('order-link-apple-wallet');
    const google = page.getByTestId('order-link-google-wallet');
    await expect(apple).toHaveCount(2);
    await expect(google).toHaveCount(2);
    await expect(apple.first()).toHaveText('Add to Apple Wallet');
    await expect(google.first()).toHaveText('Add to Google Wallet');
    await apple.first().scrollIntoViewIfNeeded();
    // At 390 px the buttons sit inside the ticket, not past the screen's edge.
    for (const b of [apple.first(), google.first()]) {
      const box = (await b.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.height).toBeGreaterThanOrEqual(44);
    }

    // Node does not resolve *.localhost: the links are fetched on the loopback with the tenant's Host header.
    const site = await apiContext(tenantOrigin(baseURL));
    const pass = await site.get((await apple.first().getAttribute('href'))!);
    expect(pass.status()).toBe(200);
    expect(pass.headers()['content-type']).toBe('application/vnd.apple.pkpass');
    expect((await pass.body()).subarray(0, 2).toString('latin1')).toBe('PK');
    const save = await site.get((await google.first().getAttribute('href'))!, { maxRedirects: 0 });
    expect(save.status()).toBe(302);
    expect(save.headers()['location']).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
    await site.dispose();
    await screenshots(page, 'order-link-wallet');

    // The tickets mail: the same two buttons for each ticket.
    expect(mail.details.html.match(/>Add to Apple Wallet</g)).toHaveLength(2);
    expect(mail.details.html.match(/>Add to Google Wallet</g)).toHaveLength(2);
    await page.setContent(mail.details.html);
    await expect(page.getByRole('link', { name: 'Add to Apple Wallet' })).toHaveCount(2);
    await screenshots(page, 'mail-wallet');
  } finally {
    await organiser.ctx.dispose();
    await admin.ctx.dispose();
  }
});

/** A port nobody listens on: E2E_WALLET_PLAIN_PORT when given, else one the system hands out. */
async function freePort(): Promise<number> {
  if (process.env.E2E_WALLET_PLAIN_PORT) return Number(process.env.E2E_WALLET_PLAIN_PORT);
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

test.describe('without wallet configuration', () => {
  let server: ChildProcess | undefined;
  let dataDir: string;
  let plainURL: string;
  test.beforeAll(async () => {
    test.setTimeout(150_000);
    const port = await freePort();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'marquee-e2e-plain-'));
    // Its own embedded PGlite database (no DATABASE_URL) even when the suite's server runs on PostgreSQL
    // (CI): this start, migration, seed and purchase keep the default path in the browser stage.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('APPLE_WALLET_') && !k.startsWith('GOOGLE_WALLET_') && k !== 'DATABASE_URL'),
    );
    server = spawn(process.execPath, [new URL('../../scripts/start.mjs', import.meta.url).pathname], {
      env: { ...env, PORT: String(port), DATA_DIR: dataDir, JOBS_POLL_MS: '200', LOG_LEVEL: 'warn', RATE_LIMIT_AUTH_PER_MINUTE: '100', RATE_LIMIT_ORDERS_PER_MINUTE: '1000' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    plainURL = `http://localhost:${port}`;
    await expect
      .poll(async () => {
        try {
          return (await fetch(`http://127.0.0.1:${port}/api/health`)).status;
        } catch {
          return 0;
        }
      }, { timeout: 120_000, intervals: [500] })
      .toBe(200);
  });
  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('neither button shows on the order link, nor in the mail', async ({ page }) => {
    const { mail, organiser, admin } = await buyAndOpenOrderLink(page, plainURL);
    try {
      await expect(page.getByTestId('order-link-qr')).toHaveCount(2);
      await expect(page.getByTestId('order-link-wallet')).toHaveCount(0);
      await expect(page.getByText('Add to Apple Wallet')).toHaveCount(0);
      await expect(page.getByText('Add to Google Wallet')).toHaveCount(0);
      for (const words of ['Add to Apple Wallet', 'Add to Google Wallet', 'wallet']) {
        expect(mail.details.html).not.toContain(words);
        expect(mail.details.text).not.toContain(words);
      }
      await page.screenshot({ path: `${shots}/order-link-no-wallet-390.png`, fullPage: true });
    } finally {
      await organiser.ctx.dispose();
      await admin.ctx.dispose();
    }
  });
});
