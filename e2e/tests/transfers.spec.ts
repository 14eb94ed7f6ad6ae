import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { pdfToY4m, phoneBrowserWithCamera, ticketsPdf } from './door-camera';
import { ADMIN, buy, givenEventOnSale, logInToConsole, ORGANISER, platformOrigin, signIn, tenantOrigin, uniqueEmail, waitForMail } from './support';

// Issue 24, transfers, on a 390 px phone: the buyer gives one ticket to a friend from the order link;
// the old QR code (the camera reads the buyer's original PDF) is refused at the door as transferred;
// the friend's own link shows the ticket with its new code; the organiser sees where the ticket went.
// Screenshots at 390 and 1280 px go to E2E_SHOTS.

const shots = process.env.E2E_SHOTS ?? '/tmp/transfers';
const PHONE = { width: 390, height: 844 };

async function screenshots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${shots}-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(PHONE);
}

test('a buyer transfers a ticket from the order link: the old code is refused at the door, the new holder’s link shows the ticket', async ({ page, browser, baseURL }) => {
  test.setTimeout(240_000);
  const acme = tenantOrigin(baseURL);
  const organiser = await signIn(acme, ORGANISER);
  const admin = await signIn(platformOrigin(baseURL), ADMIN);
  const event = await givenEventOnSale(organiser, { prefix: 'Passing Night', tickets: [{ name: 'General Admission', description: 'Standing room.', price: 3000, quantity: 50 }] });
  const buyer = uniqueEmail('giver');
  const friend = uniqueEmail('friend');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'marquee-transfer-'));

  // The buyer's ticket and its PDF, as mailed: the code the camera will show the door later.
  await page.setViewportSize(PHONE);
  await buy(page, acme, event.urlName, buyer, { count: 1 });
  const video = pdfToY4m(await ticketsPdf(baseURL!, buyer), dir);
  const mail = await waitForMail(admin, buyer, (s) => s === `Your tickets for ${event.name}`);
  const orderLink = /https?:\/\/\S+\/orders\/[A-Za-z0-9_-]{43}/.exec(mail.details.text)![0];

  await test.step('on the order link, the buyer gives the ticket to a friend', async () => {
    await page.goto(orderLink);
    const ticket = page.getByTestId('order-link-ticket');
    await expect(ticket).toHaveAttribute('data-status', 'valid');
    const oldId = await page.getByTestId('order-link-ticket-id').textContent();
    await screenshots(page, 'order-link-before');
    await page.getByTestId('order-link-transfer').click();
    const modal = page.getByTestId('transfer-modal');
    await expect(modal).toContainText('stops working as soon as you transfer it');
    // To the buyer's own address: refused at the field, by its code.
    await page.getByTestId('transfer-name').fill('Myself');
    await page.getByTestId('transfer-email').fill(buyer);
    await page.getByTestId('transfer-submit').click();
    await expect(modal).toContainText('This ticket is already theirs');
    await page.getByTestId('transfer-name').fill('Katherine Johnson');
    await page.getByTestId('transfer-email').fill(friend);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}-transfer-form-390.png` });
    await page.getByTestId('transfer-submit').click();
    await expect(page.getByText('Ticket transferred to Katherine Johnson')).toBeVisible();
    await expect(modal).toBeHidden();
    await expect(ticket).toHaveAttribute('data-status', 'transferred');
    await expect(page.getByTestId('order-link-transferred-to')).toContainText(`Transferred to Katherine Johnson (${friend})`);
    await expect(page.getByTestId('order-link-qr')).toHaveCount(0);
    await expect(page.getByText(oldId!)).toHaveCount(0);
    await screenshots(page, 'order-link-after');
  });

  let newId = '';
  await test.step('the friend’s own link shows the ticket with a new code', async () => {
    const theirs = await waitForMail(admin, friend, (s) => s.startsWith(`Your ticket for ${event.name}`));
    const link = /https?:\/\/\S+\/tickets\/[A-Za-z0-9_-]{43}/.exec(theirs.details.text)![0];
    const holder = await browser.newPage({ viewport: PHONE });
    await holder.goto(link);
    await expect(holder.getByTestId('ticket-link-page')).toHaveAttribute('data-status', 'valid');
    await expect(holder.getByTestId('ticket-link-qr')).toBeVisible();
    await expect(holder.getByTestId('ticket-link-from')).toContainText('passed this ticket to you');
    await expect(holder.getByText('Katherine Johnson')).toBeVisible();
    newId = (await holder.getByTestId('ticket-link-ticket-id').textContent())!;
    expect(newId).toMatch(/^[A-Z2-7]{26}$/);
    await screenshots(holder, 'holder-link');
    await holder.close();
  });

  await test.step('at the door, the camera reads the buyer’s old code: refused as transferred', async () => {
    const phone = await phoneBrowserWithCamera(video);
    try {
      const context = await phone.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      await context.grantPermissions(['camera'], { origin: acme });
      const door = await context.newPage();
      await logInToConsole(door, acme, ORGANISER.email, ORGANISER.password);
      await door.goto(`${acme}/events/${event.eventId}/check-in`);
      const result = door.getByTestId('scan-result');
      await expect(result).toHaveAttribute('data-result', 'transferred', { timeout: 30_000 });
      await expect(result).toContainText('Transferred ticket');
      await expect(result).toContainText('its old code no longer admits');
      await door.screenshot({ path: `${shots}-door-transferred-390.png` });
      await expect(door.getByTestId('checked-in-count')).toContainText('0 / 1');
      await context.close();
    } finally {
      await phone.close();
    }
  });

  await test.step('the organiser sees where the ticket went on the order page', async () => {
    const console = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logInToConsole(console, acme, ORGANISER.email, ORGANISER.password);
    const orders = await organiser.ctx.get(`/api/tenants/${organiser.tenantId}/events/${event.eventId}/checkin/search`, { params: { q: newId } });
    const orderUID = ((await orders.json()) as { result: Array<{ orderId: string }> }).result[0]!.orderId;
    await console.goto(`${acme}/event/${event.eventId}/order/${orderUID}`);
    const history = console.getByTestId('ticket-history');
    await expect(history.getByTestId('ticket-history-entry').nth(1)).toHaveAttribute('data-kind', 'transferred');
    await expect(history).toContainText(`to Katherine Johnson (${friend})`);
    await expect(history).toContainText(newId);
    await screenshots(console, 'console-history');
    await console.goto(`${acme}/events/${event.eventId}`);
    await expect(console.getByLabel('Buyers may transfer their tickets')).toBeChecked();
    for (const width of [1280, 390]) {
      await console.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await console.getByTestId('transfer-settings').scrollIntoViewIfNeeded();
      await console.screenshot({ path: `${shots}-console-setting-${width}.png` });
    }
    await console.close();
  });
  await organiser.ctx.dispose();
  await admin.ctx.dispose();
});
