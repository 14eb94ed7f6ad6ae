import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { pdfToY4m, phoneBrowserWithCamera, ticketsPdf } from './door-camera';
import { buy, givenEventOnSale, givenEventVolunteer, linkFromOutbox, ORGANISER, post, signIn, tenantOrigin, uniqueEmail, type Api } from './support';

// Door check-in (issue 11) as a door volunteer lives it: the organiser invites them with the
// check-in role; they sign in on a phone-sized Chromium whose camera is a fake fed a video of the
// buyer's real ticket (the confirmation mail's PDF rendered to an image); the ticket is admitted
// once and refused as already used the second time; the dashboard's tickets-used counter moves.
// Then the network goes away: a ticket is admitted from the device's own list, the page survives a
// reload, and when the network is back the scan syncs and a conflict (the same ticket admitted at
// another door meanwhile) is shown.

const PASSWORD = 'Front-door-7!';

/** The organiser's event with one $25 ticket type, for the door. */
const onSale = (organiser: Api) =>
  givenEventOnSale(organiser, { prefix: 'Door Night', tickets: [{ name: 'General Admission', description: 'Standing room.', price: 2500, quantity: 100 }] });

test.describe('door check-in', () => {
  test('a volunteer with the check-in role scans a real ticket on a phone: admitted, then already used; offline admission syncs and shows a conflict', async ({ browser, page, baseURL }) => {
    test.setTimeout(240_000);
    const acme = tenantOrigin(baseURL);
    const organiser = await signIn(acme, ORGANISER);
    const event = await onSale(organiser);
    const volunteer = uniqueEmail('door');

    await test.step('the volunteer has an account and accepts the check-in invite', async () => {
      await page.goto(`${acme}/login`);
      const status = await page.evaluate(
        async (body) => (await fetch('/api/auth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
        { username: volunteer, password: PASSWORD, password2: PASSWORD, firstName: 'Dora', lastName: 'Door', appType: 'ATTENDEE' },
      );
      expect(status).toBe(201);
      await page.goto((await linkFromOutbox(browser, baseURL!, volunteer, '/verify')).href);
      await expect(page.getByTestId('verified-note')).toBeVisible();
      await post(organiser, `/api/tenants/${organiser.tenantId}/events/${event.eventId}/staff/invites`, { email: volunteer, roles: ['event_checkin'] });
      await page.goto((await linkFromOutbox(browser, baseURL!, volunteer, '/accept-invite')).href);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'CONFIRM' }).click();
      await expect(page.getByTestId('accept-invite-success')).toContainText('Congratulations');
    });

    const buyer = uniqueEmail('buyer');
    const buyerPage = await browser.newPage();
    await buy(buyerPage, acme, event.urlName, buyer, { count: 2 });
    await buyerPage.close();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'marquee-checkin-'));
    const video = pdfToY4m(await ticketsPdf(baseURL!, buyer), dir);

    const phone = await phoneBrowserWithCamera(video);
    try {
      const context = await phone.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      await context.grantPermissions(['camera'], { origin: acme });
      const door = await context.newPage();

      await test.step('signed in on the phone, the events list opens the check-in page', async () => {
        await door.goto(`${acme}/login`);
        await door.getByLabel('Email').fill(volunteer);
        await door.locator('input[autocomplete="current-password"]').fill(PASSWORD);
        await door.getByRole('button', { name: 'Log in' }).click();
        await expect(door.getByTestId('console-nav')).toBeAttached();
        await door.goto(`${acme}/events`);
        const link = door.getByRole('link', { name: event.name });
        await expect(link).toHaveAttribute('href', `/events/${event.eventId}/check-in`);
        await door.screenshot({ path: path.join(dir, 'events-list.png') });
        await link.click({ timeout: 20_000 });
        await expect(door).toHaveURL(new RegExp(`/events/${event.eventId}/check-in$`));
        await expect(door.getByRole('heading', { name: 'Check-in' })).toBeVisible();
        // The fake camera may already have read the ticket: the total is what is sure here.
        await expect(door.getByTestId('checked-in-count')).toContainText('/ 2');
      });

      await test.step('the camera reads the ticket: admitted; the same ticket again: already used', async () => {
        const result = door.getByTestId('scan-result');
        await expect(result).toHaveAttribute('data-result', 'admitted', { timeout: 30_000 });
        await expect(result).toContainText('Grace Hopper');
        await expect(result).toContainText('General Admission');
        await door.screenshot({ path: path.join(dir, 'admitted.png') });
        await result.getByRole('button', { name: 'Next scan' }).click();
        await expect(result).toHaveAttribute('data-result', 'already_used', { timeout: 30_000 });
        await expect(result).toContainText('Already used');
        await expect(result).toContainText('Dora Door');
        await door.screenshot({ path: path.join(dir, 'already-used.png') });
        await result.getByRole('button', { name: 'Next scan' }).click();
        await expect(door.getByTestId('checked-in-count')).toContainText('1 / 2');
      });

      await test.step("the event dashboard's tickets-used counter moved", async () => {
        const dash = (await (await organiser.ctx.get(`/api/tenants/${organiser.tenantId}/events/${event.eventId}/reports/dashboard`)).json()) as { ticket_used: number };
        expect(dash.ticket_used).toBe(1);
      });

      await test.step('offline: the second ticket is admitted from the device’s list, survives a reload, syncs and shows the conflict', async () => {
        await door.getByText('Search', { exact: true }).click();
        await context.setOffline(true);
        await door.getByLabel('Find a ticket').fill('Grace');
        const row = door.getByRole('button', { name: /^Check in Grace Hopper/ });
        // The admitted ticket's button is disabled; the other one checks in.
        await door.locator('button:not([disabled])', { hasText: 'Check in' }).first().click();
        const result = door.getByTestId('scan-result');
        await expect(result).toHaveAttribute('data-result', 'admitted');
        await expect(result).toContainText('Offline');
        await result.getByRole('button', { name: 'Next scan' }).click();
        await expect(door.getByText('1 scan waiting')).toBeVisible();
        await expect(row.first()).toBeVisible();

        await door.reload();
        await expect(door.getByRole('heading', { name: 'Check-in' })).toBeVisible();
        // Away from the camera (it would read the first ticket again, offline: already used). The
        // camera starts with the page and may read it before the switch: its answer covers the
        // screen until Next scan (an answer that admits nothing queues nothing).
        const answer = door.getByTestId('scan-result');
        await door.addLocatorHandler(answer, async () => {
          await expect(answer).toHaveAttribute('data-result', 'already_used');
          await answer.getByRole('button', { name: 'Next scan' }).click();
        });
        await door.getByText('Search', { exact: true }).click();
        await door.removeLocatorHandler(answer);
        await door.getByLabel('Find a ticket').fill('Grace');
        await expect(door.getByRole('button', { name: /^Check in Grace Hopper/ })).toHaveCount(2);
        await expect(door.getByText('Door Night')).toBeVisible();
        await door.screenshot({ path: path.join(dir, 'offline-search.png'), fullPage: true });
        await expect(door.getByText('1 scan waiting')).toBeVisible();
        await expect(door.getByTestId('checked-in-count')).toContainText('2 / 2');

        // Meanwhile another door admits the same ticket online.
        const manifest = (await (await organiser.ctx.get(`/api/tenants/${organiser.tenantId}/events/${event.eventId}/checkin/manifest`)).json()) as {
          tickets: Array<{ id: string; state: string }>;
        };
        const other = manifest.tickets.find((t) => t.state === 'valid')!;
        const atTheOtherDoor = await post<{ result: string }>(organiser, `/api/tenants/${organiser.tenantId}/events/${event.eventId}/checkin/scans`, {
          clientScanId: crypto.randomUUID(),
          deviceId: 'Side door · 0001',
          ticketId: other.id,
        });
        expect(atTheOtherDoor.result).toBe('admitted');

        await context.setOffline(false);
        await door.evaluate(() => window.dispatchEvent(new Event('online')));
        const conflicts = door.getByTestId('checkin-conflicts');
        await expect(conflicts).toBeVisible({ timeout: 20_000 });
        await expect(conflicts).toContainText('was already checked in elsewhere');
        await expect(conflicts).toContainText('Side door');
        await expect(door.getByText('1 scan waiting')).toHaveCount(0);
        await door.screenshot({ path: path.join(dir, 'conflict.png'), fullPage: true });
      });
      await context.close();

      await test.step('at 1280 px in a browser without a camera, the page says so and search still works', async () => {
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`${acme}/login`);
        await page.getByLabel('Email').fill(ORGANISER.email);
        await page.locator('input[autocomplete="current-password"]').fill(ORGANISER.password);
        await page.getByRole('button', { name: 'Log in' }).click();
        await expect(page.getByTestId('console-nav')).toBeVisible();
        await page.goto(`${acme}/events/${event.eventId}`);
        await page.getByTestId('open-checkin').click();
        await expect(page.getByRole('heading', { name: 'Check-in' })).toBeVisible();
        await expect(page.getByText(/No camera|Camera access was refused/)).toBeVisible();
        await expect(page.getByTestId('checked-in-count')).toContainText('2 / 2');
        await page.screenshot({ path: path.join(dir, 'desktop.png'), fullPage: true });
      });
    } finally {
      await phone.close();
      await organiser.ctx.dispose();
    }
  });
  test('offline admissions are the volunteer’s, and the counter does not drop when the network returns (issue 21.13)', async ({ browser, page, baseURL }) => {
    test.setTimeout(180_000);
    const acme = tenantOrigin(baseURL);
    const organiser = await signIn(acme, ORGANISER);
    const event = await onSale(organiser);
    const volunteer = await givenEventVolunteer(browser, page, baseURL!, organiser, event.eventId, { password: PASSWORD });
    const buyerPage = await browser.newPage();
    await buy(buyerPage, acme, event.urlName, uniqueEmail('buyer'), { count: 3 });
    await buyerPage.close();

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const door = await context.newPage();
    try {
      await door.goto(`${acme}/login`);
      await door.getByLabel('Email').fill(volunteer);
      await door.locator('input[autocomplete="current-password"]').fill(PASSWORD);
      await door.getByRole('button', { name: 'Log in' }).click();
      await expect(door.getByTestId('console-nav')).toBeAttached();
      await door.goto(`${acme}/events/${event.eventId}/check-in`);
      const counter = door.getByTestId('checked-in-count');
      await expect(counter).toContainText('0 / 3');
      await door.getByText('Search', { exact: true }).click();
      await door.getByLabel('Find a ticket').fill('Grace');
      const checkIn = door.locator('button:not([disabled])', { hasText: 'Check in' });
      const result = door.getByTestId('scan-result');

      await checkIn.first().click();
      await expect(result).toHaveAttribute('data-result', 'admitted');
      await result.getByRole('button', { name: 'Next scan' }).click();
      await expect(counter).toContainText('1 / 3');

      // Offline: the next ticket is admitted from the device's list, in the volunteer's name.
      await context.setOffline(true);
      await checkIn.first().click();
      await expect(result).toHaveAttribute('data-result', 'admitted');
      await expect(result).toContainText('Offline');
      await result.getByRole('button', { name: 'Next scan' }).click();
      await expect(counter).toContainText('2 / 3');
      await expect(door.getByText('1 scan waiting')).toBeVisible();
      const offlineRow = door.getByText(/Checked in at .* by Dora Door \(Door 1 · [0-9a-f]{4}\)\./);
      await expect(offlineRow).toHaveCount(2);
      await expect(door.getByText(/by Door 1 /)).toHaveCount(0);
      await door.screenshot({ path: '/tmp/console-checkin-offline-390.png', fullPage: true });

      // The network comes back on a slow line: the queue takes 4 s to reach the server, while the
      // counters are asked at once. The figure stays 2 / 3 all along, and after the sync.
      await door.route('**/checkin/sync', async (route) => {
        await new Promise((r) => setTimeout(r, 4_000));
        await route.continue();
      });
      await context.setOffline(false);
      await door.evaluate(() => window.dispatchEvent(new Event('online')));
      const seen = new Set<string>();
      for (let i = 0; i < 40; i++) {
        seen.add(((await counter.textContent()) ?? '').replace(/\s+/g, ' ').trim());
        await door.waitForTimeout(200);
      }
      await expect(door.getByText('1 scan waiting')).toHaveCount(0, { timeout: 15_000 });
      for (let i = 0; i < 15; i++) {
        seen.add(((await counter.textContent()) ?? '').replace(/\s+/g, ' ').trim());
        await door.waitForTimeout(200);
      }
      expect([...seen]).toEqual(['2 / 3']);
      await expect(door.getByText('Online', { exact: true })).toBeVisible();
      await door.screenshot({ path: '/tmp/console-checkin-synced-390.png', fullPage: true });

      // The server credits the offline admission to the volunteer who scanned, on this device.
      const manifest = (await (await organiser.ctx.get(`/api/tenants/${organiser.tenantId}/events/${event.eventId}/checkin/manifest`)).json()) as {
        tickets: Array<{ state: string; usedBy: { deviceId: string; name: string } | null }>;
      };
      const used = manifest.tickets.filter((t) => t.state === 'used');
      expect(used).toHaveLength(2);
      for (const t of used) expect(t.usedBy).toMatchObject({ name: 'Dora Door', deviceId: expect.stringMatching(/^Door 1 · [0-9a-f]{4}$/) });
      await door.setViewportSize({ width: 1280, height: 900 });
      await door.screenshot({ path: '/tmp/console-checkin-synced-1280.png', fullPage: true });
    } finally {
      await context.close();
      await organiser.ctx.dispose();
    }
  });
});
