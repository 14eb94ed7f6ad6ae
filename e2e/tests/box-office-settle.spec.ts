import { randomUUID } from 'node:crypto';
import { DRAWER_PATHS, M } from '@marquee/core';
import { expect, test } from '@playwright/test';
import { expectToast, givenEventOnSale, logInToConsole, ORGANISER, post, send, signIn, tenantOrigin, type Api } from './support';

// Issue 23 (boxfix leftovers): cancelling an event leaves its cash and card-terminal orders' refunds
// owed at the box office. The organiser, on a phone (390 px), sees them on the cancelled event's page
// (how many, how much, each order) and settles them: the terminal one from the event page with the
// terminal's refund reference (required), the cash one from its order page, out of their open drawer.

type Sale = { orderUID: string; totalAmount: number };
type Progress = { owedAtBoxOffice: { orders: number; amount: number } };

/** The organiser's own open drawer, opened when there is none (a cash sale and a cash refund need it). */
async function ensureDrawer(organiser: Api) {
  const current = (await (await organiser.ctx.get(DRAWER_PATHS.current(organiser.tenantId))).json()) as { drawer: unknown };
  if (!current.drawer) await send(organiser, DRAWER_PATHS.list(organiser.tenantId), { openingFloat: 10_000 });
}

test('owed box-office refunds of a cancelled event are settled from the event page and the order page at 390 px', async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  const acme = tenantOrigin(baseURL);
  const organiser = await signIn(acme, ORGANISER);
  const event = await givenEventOnSale(organiser, { prefix: 'Called Off', tickets: [{ name: 'General Admission', description: 'Standing room.', price: 2500, quantity: 20 }] });
  const typeId = event.ticketTypeIds['General Admission']!;
  await ensureDrawer(organiser);
  const sell = (body: Record<string, unknown>) =>
    post<Sale>(organiser, `/api/tenants/${organiser.tenantId}/events/${event.eventId}/box-office/sales`, { idempotencyKey: randomUUID(), lines: [{ ticketTypeId: typeId, quantity: 1 }], ...body });
  const cash = await sell({ paymentMethod: 'cash', cashTendered: 10_000, lines: [{ ticketTypeId: typeId, quantity: 2 }], firstName: 'Cash', lastName: 'Buyer' });
  const terminal = await sell({ paymentMethod: 'card_terminal', terminalReference: 'TERM-1', firstName: 'Card', lastName: 'Buyer' });
  await send(organiser, `/api/tenants/${organiser.tenantId}/events/${event.eventId}/cancel`);
  const progress = async () => ((await (await organiser.ctx.get(`/api/tenants/${organiser.tenantId}/events/${event.eventId}/cancellation`)).json()) as Progress).owedAtBoxOffice.orders;
  await expect.poll(progress, { timeout: 60_000 }).toBe(2);

  await page.setViewportSize({ width: 390, height: 844 });
  await logInToConsole(page, acme, ORGANISER.email, ORGANISER.password);
  const owedPanel = page.getByTestId('cancellation-owed');

  await test.step('the cancelled event says how many orders and how much the box office owes, each order with Settle', async () => {
    await page.goto(`${acme}/events/${event.eventId}`);
    await expect(page.getByTestId('cancellation-progress')).toContainText('Refunds owed at the box office');
    await expect(owedPanel).toContainText(`2 orders ($${((cash.totalAmount + terminal.totalAmount) / 100).toFixed(2)})`);
    await expect(owedPanel.getByTestId('owed-refund')).toHaveCount(2);
    await expect(owedPanel.getByTestId('owed-refund').filter({ hasText: terminal.orderUID })).toContainText('card terminal');
    await page.screenshot({ path: '/tmp/box2-event-owed-390.png' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: '/tmp/box2-event-owed-1280.png' });
    await page.setViewportSize({ width: 390, height: 844 });
  });

  await test.step('the terminal order settled from the event page: its reference is required', async () => {
    await owedPanel.getByRole('button', { name: `${M.refundSettleAction} of order ${terminal.orderUID}` }).click();
    const dialog = page.getByRole('dialog', { name: M.refundSettleAction });
    await expect(dialog).toBeVisible();
    // A terminal order: the terminal is offered first.
    await expect(dialog.getByRole('radio', { name: M.refundSettleTerminal })).toBeChecked();
    await dialog.getByRole('button', { name: M.refundSettleAction }).click();
    await expect(dialog.getByText(M.refundTerminalReferenceRequired)).toBeVisible();
    await dialog.getByLabel(M.refundSettleReferenceLabel).fill('RF-77');
    await expect(dialog.getByText(M.refundTerminalReferenceRequired)).toBeHidden();
    await page.screenshot({ path: '/tmp/box2-settle-dialog-390.png' });
    await dialog.getByRole('button', { name: M.refundSettleAction }).click();
    await expectToast(page, M.refundSettled, 'on the card terminal, reference RF-77');
    await expect(dialog).toBeHidden();
    await expect(owedPanel.getByTestId('owed-refund')).toHaveCount(1);
    await expect(owedPanel).toContainText(`1 order ($${(cash.totalAmount / 100).toFixed(2)})`);
  });

  await test.step('the cash order settled from its order page, out of the open drawer', async () => {
    await page.goto(`${acme}/event/${event.eventId}/order/${cash.orderUID}`);
    const alert = page.getByTestId('order-cancellation');
    await expect(alert).toHaveAttribute('data-state', 'owed');
    await expect(alert).toContainText(`Its refund of $${(cash.totalAmount / 100).toFixed(2)} is owed at the box office`);
    await expect(page.getByRole('table', { name: 'Refunds' })).toContainText(M.refundOwedAtBoxOffice);
    await page.screenshot({ path: '/tmp/box2-order-owed-390.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: '/tmp/box2-order-owed-1280.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await alert.getByRole('button', { name: M.refundSettleAction }).click();
    const dialog = page.getByRole('dialog', { name: M.refundSettleAction });
    await expect(dialog.getByRole('radio', { name: M.refundSettleCash })).toBeChecked();
    await dialog.getByRole('button', { name: M.refundSettleAction }).click();
    await expectToast(page, M.refundSettled, 'in cash from your drawer');
    await expect(alert).toHaveAttribute('data-state', 'none');
    await expect(alert).toContainText('Its money went back in full.');
    await expect(page.getByRole('table', { name: 'Refunds' })).toContainText('Cash from a drawer');
    await expect(page.getByRole('table', { name: 'Refunds' })).not.toContainText(M.refundOwedAtBoxOffice);
    await page.screenshot({ path: '/tmp/box2-order-settled-390.png', fullPage: true });
  });

  await test.step('nothing is owed any more: the event page lists no owed refund', async () => {
    await page.goto(`${acme}/events/${event.eventId}`);
    await expect(page.getByText('This event is cancelled', { exact: true })).toBeVisible();
    await expect.poll(progress).toBe(0);
    await expect(owedPanel).toHaveCount(0);
    // The panel stays, saying what the box office paid back (it used to vanish once nothing was owed).
    await expect(page.getByTestId('cancellation-progress')).toContainText('Cancellation refunds finished');
    await expect(page.getByTestId('cancellation-settled')).toContainText(
      `2 orders paid in cash or on the card terminal were paid back at the box office: $${((cash.totalAmount + terminal.totalAmount) / 100).toFixed(2)}.`,
    );
    await page.screenshot({ path: '/tmp/settled-panel-390.png', fullPage: true });
  });
});
