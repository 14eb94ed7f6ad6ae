import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { buildZip, GOOD_TEMPLATE_FILES } from '../../apps/server/src/modules/templates/testing';
import { expectToast, logInToConsole, makePng, platformOrigin } from './support';

// Sitebuilder Templates (accounts-admin-fees screen 18, issue 10): an operator uploads a template,
// a new version, downloads both; a broken zip, a zip-slip zip and a zip bomb are each refused with
// their message; the template is deleted after the confirmation. Messages are the spec's (§5, §8).

const ADMIN = 'admin@marquee.test';

async function rowOf(page: Page, name: string): Promise<Locator> {
  await page.getByPlaceholder('Search Template').fill(name);
  const table = page.getByRole('table', { name: 'Templates' });
  await expect(table.locator('tbody tr').filter({ hasNotText: name })).toHaveCount(0);
  const row = table.locator('tbody tr').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  return row;
}

/** Mantine's FileInput is a button over a hidden input: choose the file through the chooser. */
async function choose(page: Page, field: Locator, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), field.click()]);
  await chooser.setFiles(file);
}

const zipFile = (name: string, buffer: Buffer) => ({ name, mimeType: 'application/zip', buffer });

async function downloadVersion(page: Page, modal: Locator, version: string): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), modal.getByRole('button', { name: `Download ${version}` }).click()]);
  return readFileSync((await download.path())!);
}

test('an operator uploads a template and a new version, downloads both, and bad zips are refused', async ({ browser, baseURL }) => {
  test.setTimeout(150_000);
  const name = `Festival ${Date.now().toString(36)}`;
  const page = await (await browser.newContext({ acceptDownloads: true })).newPage();
  await logInToConsole(page, platformOrigin(baseURL), ADMIN);
  await page.getByTestId('console-nav').getByRole('link', { name: 'Sitebuilder Templates' }).click();
  await expect(page.getByRole('heading', { name: 'Sitebuilder Templates', level: 2 })).toBeVisible();

  // ---- create: the spec's messages, then a good template -----------------------------------------
  await page.getByRole('button', { name: 'Add Template' }).click();
  let modal = page.getByRole('dialog', { name: 'Add Template' });
  await modal.getByRole('button', { name: 'Save' }).click();
  for (const message of ['Please enter template name', 'Please enter description', 'Please add template thumbnail', 'Please select a ZIP file']) {
    await expect(modal.getByText(message)).toBeVisible();
  }
  await modal.getByLabel('Template name').fill(name);
  await modal.getByLabel('Description').fill('A bold festival page with a hero and the ticket menu.');
  await choose(page, modal.getByLabel('Thumbnail'), { name: 'thumb.png', mimeType: 'image/png', buffer: makePng(64) });
  const v1 = await buildZip(GOOD_TEMPLATE_FILES);
  await choose(page, modal.getByLabel('Template ZIP'), zipFile('festival.zip', v1));
  await page.screenshot({ path: `${test.info().outputDir}/template-modal-1280.png` });
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal).toBeHidden();
  await expectToast(page, 'Template uploaded successfully');
  let row = await rowOf(page, name);
  await expect(row.getByText('v1', { exact: true })).toBeVisible();

  // ---- a new version -----------------------------------------------------------------------------
  await row.click();
  modal = page.getByRole('dialog', { name: 'Edit Template' });
  await expect(modal.getByText('Current version v1. Choosing a new ZIP makes v2; without one the version stays.')).toBeVisible();
  const v2 = await buildZip([...GOOD_TEMPLATE_FILES, { name: 'assets/note.txt', data: 'second version' }]);
  await choose(page, modal.getByLabel('Template ZIP'), zipFile('festival-2.zip', v2));
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal).toBeHidden();
  await expectToast(page, 'Template updated successfully');
  row = await rowOf(page, name);
  await expect(row.getByText('v2', { exact: true })).toBeVisible();
  await page.screenshot({ path: `${test.info().outputDir}/templates-1280.png` });

  // ---- both versions download, byte for byte -------------------------------------------------------
  await row.click();
  modal = page.getByRole('dialog', { name: 'Edit Template' });
  await expect(modal.getByRole('table', { name: 'Versions' }).locator('tr')).toHaveCount(2);
  expect(Buffer.compare(await downloadVersion(page, modal, 'v2'), v2)).toBe(0);
  expect(Buffer.compare(await downloadVersion(page, modal, 'v1'), v1)).toBe(0);

  // ---- three bad zips, each refused with its message; the version stays v2 ------------------------------
  const bad: Array<[string, Buffer, string]> = [
    ['broken.zip', (await buildZip(GOOD_TEMPLATE_FILES)).subarray(0, 200), 'This file is not a readable ZIP archive.'],
    ['slip.zip', await buildZip([...GOOD_TEMPLATE_FILES, { name: '../../evil.sh', data: 'echo owned' }]), 'The ZIP file holds a path that leaves the archive, an absolute path or a link: ../../evil.sh'],
    [
      'bomb.zip',
      await buildZip([...GOOD_TEMPLATE_FILES, { name: 'assets/zeros.bin', data: Buffer.alloc(16 * 1024 * 1024) }]),
      'The ZIP file unpacks to more than the allowed size (at most 2,000 files, 20 MB a file, 100 MB in all, 200 times compressed).',
    ],
  ];
  for (const [file, bytes, message] of bad) {
    await choose(page, modal.getByLabel('Template ZIP'), zipFile(file, bytes));
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByText(message)).toBeVisible();
    await expectToast(page, 'Failed to Update the Template!', message);
  }
  await page.screenshot({ path: `${test.info().outputDir}/template-refused-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${test.info().outputDir}/template-refused-390.png` });
  await modal.getByRole('button', { name: 'Cancel' }).click();
  await page.screenshot({ path: `${test.info().outputDir}/templates-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  row = await rowOf(page, name);
  await expect(row.getByText('v2', { exact: true })).toBeVisible();

  // ---- delete after the confirmation -------------------------------------------------------------
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(page.getByText('Are you sure you want to delete this template?')).toBeVisible();
  await page.getByTestId('confirm-delete').click();
  await expectToast(page, 'Template removed successfully');
  await page.getByPlaceholder('Search Template').fill(name);
  await expect(page.getByText('No templates match')).toBeVisible();
});
