// First load of the attendee site: the gzipped JS and CSS a browser with an empty cache needs for
// the event page, the ticket menu, the cart and the checkout. Budget: 100 KB per page (issue 13).
//
//   npm run build && npm start            # or any running server with the demo tenant
//   npx tsx bench/first-load.ts           # FIRST_LOAD_URL=http://acme.localhost:3000/summer-jam
//
// Each page is loaded in a fresh browser context (nothing cached) in headless Chromium
// (/usr/bin/chromium, or CHROMIUM_PATH). Every script and stylesheet the page fetches until the
// network is idle is gzipped here with zlib (level 9, as a server would serve it) and summed. The
// cart and checkout start with two tickets in the cart; the checkout is entered with the router
// state the cart's CONTINUE leaves (a reload of the checkout page). Prints a table per page, the
// union of the four (the whole journey), and exits 1 when a page is over budget.
// FIRST_LOAD_ORDER_LINK=/orders/{token} (a private order link of the same tenant, from a tickets
// mail) measures the order page too, with its tickets' QR codes (issue 21.8).

import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Response } from 'playwright-core';

const PAGE_URL = (process.env.FIRST_LOAD_URL ?? 'http://acme.localhost:3000/summer-jam').replace(/\/+$/, '');
const BUDGET_BYTES = 100 * 1024; // issue 13 (was 150 KB, issue 4)
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

type Asset = { url: string; kind: 'js' | 'css'; raw: number; gzip: number };
type PageResult = { name: string; path: string; assets: Asset[]; total: number };

const origin = new URL(PAGE_URL).origin;
const eventName = new URL(PAGE_URL).pathname.split('/').filter(Boolean)[0] ?? '';

/** Node does not resolve *.localhost as browsers do: ask the loopback address with the tenant's Host. */
function getJson(path: string): Promise<unknown> {
  const url = new URL(origin);
  const loopback = url.hostname === 'localhost' || url.hostname.endsWith('.localhost');
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: loopback ? '127.0.0.1' : url.hostname, port: url.port || 80, path, headers: { host: url.host, accept: 'application/json' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`GET ${path} answered ${res.statusCode}: is the server running with the demo data?`));
          else resolve(JSON.parse(body));
        });
      },
    );
    req.on('error', reject);
  });
}

async function cartForBench(): Promise<Array<{ id: string; ticketName: string; price: number; quantity: number; details: string }>> {
  const event = (await getJson(`/api/p/events/${encodeURIComponent(eventName)}`)) as { ticketTypes: Array<{ id: string; details: { name: string; price: number; details: string; remainingQuantity: number } }> };
  return event.ticketTypes
    .filter((t) => t.details.remainingQuantity > 0)
    .slice(0, 2)
    .map((t) => ({ id: t.id, ticketName: t.details.name, price: t.details.price, quantity: 1, details: t.details.details }));
}

async function measure(browser: Browser, name: string, path: string, ready: string, setup?: string): Promise<PageResult> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (setup) await context.addInitScript(setup);
  const page = await context.newPage();
  const pending: Promise<Asset | null>[] = [];
  page.on('response', (response: Response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      response
        .body()
        .then((body) => ({ url: response.url(), kind: type === 'script' ? ('js' as const) : ('css' as const), raw: body.length, gzip: gzipSync(body, { level: 9 }).length }))
        .catch(() => null),
    );
  });
  await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
  await page.waitForSelector(ready, { timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  const assets = (await Promise.all(pending)).filter((a): a is Asset => a !== null);
  await context.close();
  const unique = [...new Map(assets.map((a) => [a.url, a])).values()];
  return { name, path, assets: unique, total: unique.reduce((n, a) => n + a.gzip, 0) };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const items = await cartForBench();
  const cartKey = `marquee.cart:${eventName.toLowerCase()}`;
  const withCart = `localStorage.setItem(${JSON.stringify(cartKey)}, ${JSON.stringify(JSON.stringify(items))});`;
  // React Router keeps navigation state in history.state as {usr, key, idx}: what CONTINUE leaves.
  const fromCart = `${withCart} history.replaceState({ usr: { fromCart: true }, key: 'bench', idx: 0 }, '');`;

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const results = [
      await measure(browser, 'event page', `/${eventName}/`, '[data-testid="get-tickets"], [data-testid="published-event-page"]'),
      await measure(browser, 'ticket menu', `/${eventName}/tickets`, '[data-testid^="ticket-type-"]'),
      await measure(browser, 'cart', `/${eventName}/cart`, '[data-testid="continue"]', withCart),
      await measure(browser, 'checkout', `/${eventName}/account`, '[data-testid="place-order"]', fromCart),
    ];
    const orderLink = process.env.FIRST_LOAD_ORDER_LINK;
    if (orderLink) results.push(await measure(browser, 'order page', new URL(orderLink, origin).pathname, '[data-testid="order-link-page"]'));

    console.log(`First load of the attendee site at ${origin}/${eventName}/ (gzipped with zlib level 9, budget ${kb(BUDGET_BYTES)} per page)\n`);
    let over = false;
    for (const r of results) {
      const js = r.assets.filter((a) => a.kind === 'js').reduce((n, a) => n + a.gzip, 0);
      const css = r.assets.filter((a) => a.kind === 'css').reduce((n, a) => n + a.gzip, 0);
      const verdict = r.total <= BUDGET_BYTES ? 'within budget' : 'OVER BUDGET';
      if (r.total > BUDGET_BYTES) over = true;
      console.log(`${r.name.padEnd(12)} ${kb(r.total).padStart(9)}  (JS ${kb(js)}, CSS ${kb(css)}, ${r.assets.length} files)  ${verdict}`);
      if (process.env.FIRST_LOAD_VERBOSE) {
        for (const a of [...r.assets].sort((x, y) => y.gzip - x.gzip)) console.log(`    ${kb(a.gzip).padStart(9)}  ${new URL(a.url).pathname}`);
      }
    }
    const union = new Map(results.flatMap((r) => r.assets).map((a) => [a.url, a]));
    const unionTotal = [...union.values()].reduce((n, a) => n + a.gzip, 0);
    console.log(`\nall ${results.length === 4 ? 'four' : results.length} pages together (every file once): ${kb(unionTotal)} in ${union.size} files (the whole journey, for reference: the budget is per page)`);
    if (over) process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
