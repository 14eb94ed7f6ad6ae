import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, logInToConsole, ORGANISER, platformOrigin, tenantOrigin } from './support';

// issue 15 Organisers: "Modals lose everything on Esc inside a date picker or a click on the
// overlay: a half-filled form asks before it is thrown away." Every console modal form closes
// through the one FormModal (apps/web/src/ui/form-modal.tsx); these are its behaviours.

const prompt = (page: Page) => page.getByRole('dialog', { name: 'Discard changes?' });

/** A click on the overlay, outside the dialog (its top-left corner is overlay at both widths). */
async function clickOverlay(page: Page) {
  await page.mouse.click(5, 5);
}

async function openCreateTenant(page: Page): Promise<Locator> {
  await page.goto(`${platformOrigin(page.url())}/tenants`);
  await page.getByRole('button', { name: 'Create New Tenant' }).first().click();
  const modal = page.getByRole('dialog', { name: 'Create New Tenant' });
  await expect(modal).toBeVisible();
  return modal;
}

for (const size of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: size });

    test('a clean form closes at once on Esc, the overlay and the close button', async ({ page, baseURL }) => {
      await logInToConsole(page, platformOrigin(baseURL), ADMIN.email);
      const close = [
        ['Esc', () => page.keyboard.press('Escape')],
        ['overlay', () => clickOverlay(page)],
        ['close button', (modal: Locator) => modal.locator('.mantine-Modal-close').click()],
      ] as const;
      for (const [, how] of close) {
        const modal = await openCreateTenant(page);
        await how(modal);
        await expect(modal).toBeHidden();
        await expect(prompt(page)).toHaveCount(0);
      }
      // Esc before the focus has moved into the modal (it stays on the button that opened it for a
      // timer's length, longer on a busy phone): the modal closes all the same.
      const modal = await openCreateTenant(page);
      await page.getByRole('button', { name: 'Create New Tenant' }).first().evaluate((b: HTMLElement) => b.focus());
      await page.keyboard.press('Escape');
      await expect(modal).toBeHidden();
    });

    test('a dirty form asks Discard changes? on Esc, the overlay and the close button', async ({ page, baseURL }) => {
      await logInToConsole(page, platformOrigin(baseURL), ADMIN.email);
      const modal = await openCreateTenant(page);
      await modal.getByLabel('Tenant Name').fill('Half Filled Events');

      await test.step('a click on the overlay asks; Keep editing keeps what was typed', async () => {
        await clickOverlay(page);
        await expect(prompt(page)).toBeVisible();
        await expect(prompt(page)).toContainText('Your changes have not been saved.');
        await page.screenshot({ path: test.info().outputPath(`discard-prompt-${size.width}.png`) });
        await prompt(page).getByRole('button', { name: 'Keep editing' }).click();
        await expect(prompt(page)).toBeHidden();
        await expect(modal.getByLabel('Tenant Name')).toHaveValue('Half Filled Events');
      });

      await test.step('Esc asks; Esc on the prompt keeps editing', async () => {
        await modal.getByLabel('Tenant Name').focus();
        await page.keyboard.press('Escape');
        await expect(prompt(page)).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(prompt(page)).toBeHidden();
        await expect(modal).toBeVisible();
        await expect(modal.getByLabel('Tenant Name')).toHaveValue('Half Filled Events');
      });

      await test.step('the close button asks; Discard closes and the form starts empty next time', async () => {
        await modal.locator('.mantine-Modal-close').click();
        await expect(prompt(page)).toBeVisible();
        await prompt(page).getByRole('button', { name: 'Discard' }).click();
        await expect(prompt(page)).toBeHidden();
        await expect(modal).toBeHidden();
        const again = await openCreateTenant(page);
        await expect(again.getByLabel('Tenant Name')).toHaveValue('');
        await page.keyboard.press('Escape');
        await expect(again).toBeHidden();
      });
    });
  });
}

test('Esc in an open date picker or select dropdown closes only that', async ({ page, baseURL }) => {
  const origin = tenantOrigin(baseURL);
  await logInToConsole(page, origin, ORGANISER.email);
  await page.getByTestId('console-nav').getByRole('link', { name: 'Events' }).click();
  await page.getByPlaceholder('Search by event name').fill('Summer Jam');
  await page.getByRole('table', { name: 'Events' }).getByRole('row').filter({ hasText: 'Summer Jam' }).click();
  await page.getByRole('tab', { name: 'Discount codes' }).click();
  await page.getByTestId('add-discount-code').click();
  const modal = page.getByRole('dialog', { name: 'Add discount code' });
  await expect(modal).toBeVisible();

  await test.step('the date picker of a clean form: Esc closes the calendar, not the modal', async () => {
    await modal.getByLabel('From date').click();
    const calendar = page.locator('.mantine-Popover-dropdown').filter({ has: page.locator('table') });
    await expect(calendar).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(calendar).toBeHidden();
    await expect(modal).toBeVisible();
    await expect(prompt(page)).toHaveCount(0);
  });

  await test.step('a select dropdown: Esc closes the options, not the modal', async () => {
    await modal.getByRole('textbox', { name: 'Code' }).fill('HALFDONE');
    await modal.getByRole('textbox', { name: 'Applies to' }).click();
    const options = page.getByRole('listbox');
    await expect(options).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(options).toBeHidden();
    await expect(modal).toBeVisible();
    await expect(prompt(page)).toHaveCount(0);
  });

  await test.step('the date picker of a dirty form: Esc closes the calendar; the next Esc asks', async () => {
    await modal.getByLabel('Until date').click();
    const calendar = page.locator('.mantine-Popover-dropdown').filter({ has: page.locator('table') });
    await expect(calendar).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(calendar).toBeHidden();
    await expect(prompt(page)).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(prompt(page)).toBeVisible();
    await prompt(page).getByRole('button', { name: 'Keep editing' }).click();
    await expect(modal.getByRole('textbox', { name: 'Code' })).toHaveValue('HALFDONE');
  });

  await test.step('Cancel is the explicit way out: it closes without asking', async () => {
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(modal).toBeHidden();
    await expect(prompt(page)).toHaveCount(0);
  });
});
