// The schemas screen in a real browser (docs/api.md "Overview" 9): create, clone, edit,
// save, save as new version, delete version, reset, download and delete, the AVRO read-only note,
// and invalid JSON refused where it is wrong. Every test ends with a screenshot in test-results/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESULTS_DIR, useBrowser } from '../browser.ts';
import { editorText, setEditorText } from '../editor.ts';

interface Stored {
  name: string;
  version: number;
  type: string;
  data?: Record<string, unknown>;
}

describe('the schemas screen', () => {
  const ui = useBrowser();
  const register = (name: string, data: Record<string, unknown>, extra: Partial<Stored> = {}) =>
    ui.api('POST', '/api/schema', { name, version: 1, type: 'JSON', data, ...extra });
  const stored = async (name: string) =>
    ((await ui.api('GET', '/api/schema')) as Stored[])
      .filter((s) => s.name === name)
      .sort((a, b) => a.version - b.version);
  const openEditor = async (name: string, version?: number) => {
    await ui.page.goto(`${ui.url}/schemas/edit/${name}${version ? `/${version}` : ''}`);
    await ui.page.getByLabel('Schema JSON', { exact: true }).waitFor();
  };

  it('lists one row per schema with type, latest version, version count and creation time', async () => {
    await register('order', { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' });
    await ui.api('POST', '/api/schema?newVersion=true', {
      name: 'order',
      type: 'JSON',
      data: { type: 'object' },
    });
    await register('event', { type: 'record', name: 'Event', fields: [] }, { type: 'AVRO' });
    const { page } = ui;
    await page.goto(`${ui.url}/schemas`);
    const row = page.getByRole('row', { name: /^order / });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(0, 4)).toEqual(['order', 'JSON', '2', '2']);
    expect(cells[4]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    expect(
      (
        await page
          .getByRole('row', { name: /^event / })
          .getByRole('cell')
          .allTextContents()
      ).slice(0, 4),
    ).toEqual(['event', 'AVRO', '1', '1']);
    await row.getByRole('link', { name: 'order' }).click();
    await page.waitForURL(/\/schemas\/edit\/order$/);
    await expect.poll(() => page.getByLabel('Version').inputValue()).toBe('2');
    await ui.shot('schemas-list');
  });

  it('creates a schema from the template with a $schema line; saving registers version 1', async () => {
    const { page } = ui;
    await page.goto(`${ui.url}/schemas`);
    await page.getByRole('button', { name: 'New schema' }).click();
    await page.getByLabel('Schema JSON', { exact: true }).waitFor();
    expect(await editorText(page)).toContain('"$schema": "https://json-schema.org/draft/2020-12/schema"');
    await page.getByLabel('Name').fill('customer');
    await setEditorText(
      page,
      JSON.stringify({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        required: ['id'],
      }),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/schemas\/edit\/customer\/1$/);
    const versions = await stored('customer');
    expect(versions.map((v) => [v.version, v.type, v.data?.required])).toEqual([[1, 'JSON', ['id']]]);
    await ui.shot('schemas-create');
  });

  it('refuses to save invalid JSON and shows where it is wrong', async () => {
    await register('broken', { type: 'object' });
    const { page } = ui;
    await openEditor('broken', 1);
    await setEditorText(page, '{\n  "type": "object",\n  "required": [\n}');
    const alert = page.getByRole('alert').filter({ hasText: 'Invalid JSON' });
    await alert.waitFor();
    // CodeMirror may indent the typed closing brace; the line is what matters.
    expect(await alert.textContent()).toMatch(/expected a value, found "}" \(line 4, column \d+\)/);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save as new version' }).isDisabled()).toBe(true);
    // The editor marks the place: a lint marker in the gutter.
    await page.locator('.cm-lint-marker-error').first().waitFor();
    expect((await stored('broken'))[0]?.data).toEqual({ type: 'object' });
    await ui.shot('schemas-invalid-json');
  });

  it('clones a schema under a new name at version 1', async () => {
    await register('address', { type: 'object', properties: { city: { type: 'string' } } });
    await ui.api('POST', '/api/schema?newVersion=true', {
      name: 'address',
      type: 'JSON',
      data: { type: 'string' },
    });
    const { page } = ui;
    await page.goto(`${ui.url}/schemas`);
    await page.getByRole('button', { name: 'Clone address' }).click();
    await page.getByLabel('Name of the copy of address').fill('address_eu');
    await page.getByRole('button', { name: 'Create copy' }).click();
    await page.waitForURL(/\/schemas\/edit\/address_eu\/1$/);
    const copy = await stored('address_eu');
    expect(copy.map((v) => [v.version, v.data])).toEqual([[1, { type: 'string' }]]);
    await ui.shot('schemas-clone');
  });

  it('edits and saves over the shown version after confirmation', async () => {
    await register('invoice', { type: 'object' });
    const { page } = ui;
    await openEditor('invoice', 1);
    await setEditorText(page, '{"type": "object", "required": ["total"]}');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('Overwrite version 1 of invoice?');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved version 1' }).waitFor();
    expect((await stored('invoice')).map((v) => [v.version, v.data])).toEqual([
      [1, { type: 'object', required: ['total'] }],
    ]);
    await ui.shot('schemas-save');
  });

  it('saves as a new version numbered by the server', async () => {
    await register('shipment', { type: 'object' });
    const { page } = ui;
    await openEditor('shipment', 1);
    await setEditorText(page, '{"type": "array"}');
    await page.getByRole('button', { name: 'Save as new version' }).click();
    await page.waitForURL(/\/schemas\/edit\/shipment\/2$/);
    expect((await stored('shipment')).map((v) => [v.version, v.data])).toEqual([
      [1, { type: 'object' }],
      [2, { type: 'array' }],
    ]);
    await expect.poll(() => page.getByLabel('Version').inputValue()).toBe('2');
    await ui.shot('schemas-save-new-version');
  });

  it('deletes one version after confirmation and shows the remaining latest', async () => {
    await register('payment', { type: 'object' });
    await ui.api('POST', '/api/schema?newVersion=true', {
      name: 'payment',
      type: 'JSON',
      data: { type: 'null' },
    });
    const { page } = ui;
    await openEditor('payment', 2);
    await page.getByRole('button', { name: 'Delete version' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete version' }).click();
    await page.waitForURL(/\/schemas\/edit\/payment$/);
    expect((await stored('payment')).map((v) => v.version)).toEqual([1]);
    await expect.poll(() => page.getByLabel('Version').inputValue()).toBe('1');
    await ui.shot('schemas-delete-version');
  });

  it('resets local edits to what the server holds', async () => {
    await register('refund', { type: 'object', title: 'stored' });
    const { page } = ui;
    await openEditor('refund', 1);
    await setEditorText(page, '{"title": "local edit"}');
    await page.getByText('Unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('status').filter({ hasText: 'Local edits discarded' }).waitFor();
    const text = await editorText(page);
    expect(JSON.parse(text)).toEqual({ type: 'object', title: 'stored' });
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    await ui.shot('schemas-reset');
  });

  it('downloads the shown version as a .json file named after the schema and version', async () => {
    await register('ticket', { type: 'object', title: 'Ticket' });
    const { page } = ui;
    await openEditor('ticket', 1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('ticket.v1.json');
    // The browser runs as a server process shared by the suites: save the file on this side.
    const path = join(RESULTS_DIR, 'downloads', download.suggestedFilename());
    await download.saveAs(path);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ type: 'object', title: 'Ticket' });
    await ui.shot('schemas-download');
  });

  it('deletes a schema with all its versions after confirmation', async () => {
    await register('obsolete', { type: 'object' });
    await ui.api('POST', '/api/schema?newVersion=true', { name: 'obsolete', type: 'JSON', data: {} });
    const { page } = ui;
    await page.goto(`${ui.url}/schemas`);
    await page.getByRole('button', { name: 'Delete obsolete' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('Delete schema obsolete and all its versions?');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('row', { name: /^obsolete / }).waitFor({ state: 'detached' });
    expect(await stored('obsolete')).toEqual([]);
    await ui.shot('schemas-delete');
  });

  it('opens an AVRO schema read-only with a note that this server does not validate it', async () => {
    await register(
      'clicks',
      { type: 'record', name: 'Click', fields: [{ name: 'at', type: 'long' }] },
      { type: 'AVRO' },
    );
    const { page } = ui;
    await openEditor('clicks', 1);
    const note = page.getByRole('note');
    expect(await note.textContent()).toContain(
      'This is an AVRO schema. This server stores it but does not validate it',
    );
    expect(await page.getByLabel('Schema JSON', { exact: true }).getAttribute('contenteditable')).toBe(
      'false',
    );
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save as new version' }).isDisabled()).toBe(true);
    await ui.shot('schemas-avro-read-only');
  });

  it('shows an API error in words', async () => {
    const { page } = ui;
    await page.goto(`${ui.url}/schemas/edit/nothing-here`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/nothing-here/);
    await ui.shot('schemas-api-error');
  });
});
