import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, fillContact, givenEventOnSale, logInToConsole, mailsTo, ORGANISER, payOnGatewayPage, platformOrigin, signIn, tenantOrigin, uniqueEmail, type Api } from './support';

// Issue 24, attendee details and questions: the organiser asks a name for each ticket and two
// questions; a buyer on a phone answers them at checkout (the missing name is refused first, with its
// own message); the names are on the tickets PDF, at the door and in the tickets export.

const SHOTS = process.env.SHOTS_DIR ?? '/tmp';

async function put(api: Api, p: string, data: unknown) {
  const res = await api.ctx.fetch(p, { method: 'PUT', data, headers: { 'x-csrf-token': api.csrf } });
  expect(res.ok(), `PUT ${p}: ${res.status()} ${await res.text()}`).toBeTruthy();
  return res.json();
}
async function postJson(api: Api, p: string, data: unknown) {
  const res = await api.ctx.post(p, { data, headers: { 'x-csrf-token': api.csrf } });
  expect(res.ok(), `POST ${p}: ${res.status()} ${await res.text()}`).toBeTruthy();
  return res.json();
}

async function shoot(page: Page, name: string, width: number) {
  await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
  await page.screenshot({ path: path.join(SHOTS, `answers-${name}-${width}.png`), fullPage: true });
}

test.describe('attendee details and questions', () => {
  test('a buyer on a phone names each ticket and answers two questions; the names are on the PDF, at the door and in the export', async ({ browser, page, baseURL }) => {
    test.setTimeout(240_000);
    const acme = tenantOrigin(baseURL);
    const organiser = await signIn(acme, ORGANISER);
    const event = await givenEventOnSale(organiser, {
      prefix: 'Summit',
      tickets: [{ name: 'Conference', description: 'Both days and the dinner.', price: 2500, quantity: 100 }],
    });
    const base = `/api/tenants/${organiser.tenantId}/events/${event.eventId}`;
    await put(organiser, `${base}/attendee-settings`, { ticketTypes: [{ ticketTypeId: event.ticketTypeIds.Conference, askName: 'required', askEmail: 'optional' }] });
    await postJson(organiser, `${base}/questions`, {
      details: { label: 'Dietary needs', kind: 'singleChoice', options: ['None', 'Vegetarian', 'Vegan'], required: true, scope: 'ticket', helpText: 'For the conference dinner.' },
    });
    await postJson(organiser, `${base}/questions`, { details: { label: 'Company', kind: 'shortText', scope: 'order', helpText: 'Printed on the badges.' } });

    const email = uniqueEmail('summit');
    let orderUID = '';
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const phone = await context.newPage();
    try {
      await test.step('the buyer answers at checkout, on a phone', async () => {
        await phone.goto(`${acme}/${event.urlName}/tickets`);
        for (let i = 0; i < 2; i++) await phone.getByRole('button', { name: 'Add one Conference' }).click();
        await phone.getByTestId('view-cart').click();
        await phone.getByTestId('continue').click();
        await fillContact(phone, email, { firstName: 'Ada', lastName: 'Lovelace' });
        const details = phone.getByTestId('attendee-details');
        await expect(details).toBeVisible();
        await expect(details.getByRole('heading', { name: 'Attendee Details' })).toBeVisible();
        // The help text is read with the question.
        const company = details.getByLabel('Company');
        await expect(company).toHaveAccessibleDescription('Printed on the badges.');

        // Nothing named yet: refused at once, each field with its own message, the first one focused.
        await phone.getByTestId('place-order').click();
        const firstName = details.getByTestId('attendee-0-name');
        await expect(firstName).toHaveAttribute('aria-invalid', 'true');
        await expect(firstName).toHaveAccessibleDescription('The Attendee Name field is required.');
        await expect(details.getByText('The Dietary needs field is required.')).toHaveCount(2);
        await expect(firstName).toBeFocused();
        await shoot(phone, 'checkout-errors', 390);

        await firstName.fill('Grace Hopper');
        await details.getByTestId('attendee-1-name').fill('Alan Turing');
        await company.fill('Analytical Engines Ltd');
        // Keyboard: the choices are radios in a named group.
        const first = details.getByTestId('attendee-0').getByRole('group', { name: /Dietary needs/ });
        await first.getByRole('radio', { name: 'Vegan' }).check();
        await details.getByTestId('attendee-1').getByRole('group', { name: /Dietary needs/ }).getByRole('radio', { name: 'None' }).check();
        await expect(details.getByText('The Dietary needs field is required.')).toHaveCount(0);
        await details.scrollIntoViewIfNeeded();
        await shoot(phone, 'checkout', 390);
        await shoot(phone, 'checkout', 1280);
        await phone.setViewportSize({ width: 390, height: 844 });

        await phone.getByTestId('place-order').click();
        await payOnGatewayPage(phone);
        await expect(phone.getByTestId('success-page')).toHaveAttribute('data-status', 'paid', { timeout: 20_000 });
        orderUID = new URL(phone.url()).searchParams.get('orderID')!;
      });

      const admin = await signIn(platformOrigin(baseURL), ADMIN);
      let pdfUrl = '';
      let linkText = '';
      await expect
        .poll(async () => {
          const mail = (await mailsTo(admin, email)).find((m) => m.details.attachments.length > 0);
          pdfUrl = mail?.details.attachments.find((a) => a.filename.endsWith('.pdf'))?.url ?? '';
          linkText = mail?.details.text ?? '';
          return pdfUrl;
        }, { timeout: 30_000 })
        .not.toBe('');

      await test.step('the names are on the tickets PDF', async () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'answers-'));
        const file = path.join(dir, 'tickets.pdf');
        writeFileSync(file, await (await admin.ctx.get(pdfUrl)).body());
        const text = execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8');
        expect(text).toContain('Grace Hopper');
        expect(text).toContain('Alan Turing');
      });

      await test.step('the order link shows the names and answers', async () => {
        const link = /https?:\/\/\S+\/orders\/[A-Za-z0-9_-]+/.exec(linkText)![0];
        await phone.goto(link);
        const card = phone.getByTestId('order-answers-card');
        await expect(card).toContainText('Grace Hopper');
        await expect(card).toContainText('Analytical Engines Ltd');
        await expect(card.getByTestId('change-answers')).toBeVisible();
        await card.scrollIntoViewIfNeeded();
        await shoot(phone, 'order-link', 390);
        await phone.setViewportSize({ width: 390, height: 844 });
      });

      await test.step('at the door, the check-in result names the attendee', async () => {
        await logInToConsole(phone, acme, ORGANISER.email, ORGANISER.password);
        await phone.goto(`${acme}/events/${event.eventId}/check-in`);
        await phone.getByText('Search', { exact: true }).click();
        await phone.getByLabel('Find a ticket').fill('Grace');
        await phone.getByRole('button', { name: 'Check in Grace Hopper' }).click();
        const result = phone.getByTestId('scan-result');
        await expect(result).toHaveAttribute('data-result', 'admitted');
        await expect(result).toContainText('Grace Hopper');
        await shoot(phone, 'door', 390);
      });

      await test.step('the tickets export has the names and a column per question', async () => {
        const started = (await (await organiser.ctx.get(`${base}/reports/tickets/download`)).json()) as { downloadUrl: string };
        let csv = '';
        await expect
          .poll(async () => {
            const res = await organiser.ctx.get(started.downloadUrl);
            csv = res.status() === 200 && (res.headers()['content-type'] ?? '').startsWith('text/csv') ? await res.text() : '';
            return csv.length > 0;
          }, { timeout: 30_000 })
          .toBe(true);
        const [header, ...rows] = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
        expect(header).toContain('Dietary needs,Company');
        expect(rows.find((r) => r.includes('Grace Hopper'))).toContain('Vegan,Analytical Engines Ltd');
        expect(rows.find((r) => r.includes('Alan Turing'))).toContain('None,Analytical Engines Ltd');
      });
      await admin.ctx.dispose();
    } finally {
      await context.close();
    }

    await test.step('the organiser’s Questions tab and the order’s answers, at 390 and 1280 px', async () => {
      await logInToConsole(page, acme, ORGANISER.email, ORGANISER.password);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${acme}/events/${event.eventId}/questions`);
      await expect(page.getByTestId('question-0')).toContainText('Dietary needs');
      await expect(page.getByTestId('answers-report')).toContainText('Vegan');
      await shoot(page, 'console-questions', 390);
      await shoot(page, 'console-questions', 1280);
      // Keyboard: the arrows move a question.
      await page.getByRole('button', { name: 'Move “Company” up' }).click();
      await expect(page.getByTestId('question-0')).toContainText('Company');
      await page.getByTestId('add-question').click();
      await shoot(page, 'console-question-modal', 1280);
      await page.keyboard.press('Escape');
    });

    await test.step('the order page shows the attendees and answers; the organiser corrects a name, which the ticket then carries', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${acme}/event/${event.eventId}/order/${orderUID}`);
      const panel = page.getByTestId('order-answers');
      await expect(panel).toContainText('Grace Hopper');
      await expect(panel).toContainText('Dietary needs: Vegan');
      await panel.scrollIntoViewIfNeeded();
      await shoot(page, 'console-order', 390);
      await shoot(page, 'console-order', 1280);
      await panel.getByTestId('edit-answers').click();
      await page.getByTestId('edit-name-1').fill('Alan M. Turing');
      await page.getByTestId('save-answers').click();
      await expect(panel).toContainText('Alan M. Turing');
      const orderTickets = await (await organiser.ctx.get(`${base}/orders/${orderUID}`)).json();
      expect(JSON.stringify(orderTickets)).toContain('Alan M. Turing');
    });
    await organiser.ctx.dispose();
  });
});
