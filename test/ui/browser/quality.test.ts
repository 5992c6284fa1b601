// Quality of the UI in a real browser: the main bundle within its budget with the JSON editor
// loaded lazily, every form control labelled, the forms usable from the keyboard, long lists paged,
// and nothing fetched from outside the service.
import { describe, expect, it } from 'vitest';
import { MAIN_BUNDLE_BUDGET_BYTES, mainBundleBytes } from '../../../ui/build.ts';
import { useBrowser } from '../browser.ts';

/** Form controls on the page without an accessible label. */
const unlabelled = (page: import('playwright-core').Page) =>
  page.evaluate(() =>
    [
      ...document.querySelectorAll(
        'input, select, textarea, [contenteditable="true"], [contenteditable="false"]',
      ),
    ]
      .filter((el) => {
        const labelled = (el as HTMLInputElement).labels?.length ?? 0;
        return labelled === 0 && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby');
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );

describe('UI quality', () => {
  const ui = useBrowser();

  it('keeps the main bundle under 400 KB gzipped', () => {
    const main = mainBundleBytes();
    expect(main.files.some((f) => f.endsWith('.js'))).toBe(true);
    expect(main.gzipBytes).toBeLessThan(MAIN_BUNDLE_BUDGET_BYTES);
  });

  it('loads the JSON editor only when a page shows one, and nothing from outside the service', async () => {
    const { page } = ui;
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${ui.url}/schemas`);
    await page.getByRole('heading', { name: 'Schemas', level: 1 }).waitFor();
    // The CodeMirror chunk itself (`assets/json-editor-*.js`), not the small wrapper that loads it.
    const editorChunk = (url: string) => url.includes('/assets/json-editor-');
    expect(requested.filter(editorChunk)).toEqual([]);
    await page.getByRole('button', { name: 'New schema' }).click();
    await page.getByLabel('Schema JSON', { exact: true }).waitFor();
    expect(requested.filter(editorChunk).length).toBe(1);
    expect(requested.filter((url) => !url.startsWith(ui.url))).toEqual([]);
    await ui.shot('quality-lazy-editor');
  });

  it('labels every form control on the editors', async () => {
    await ui.api('POST', '/api/schema', { name: 'labelled', version: 1, type: 'JSON', data: {} });
    await ui.api('POST', '/api/metadata/workflow', {
      name: 'labelled',
      version: 1,
      tasks: [{ name: 'a', taskReferenceName: 'a', type: 'SIMPLE' }],
    });
    const { page } = ui;
    for (const path of [
      '/schemas/new',
      '/schemas/edit/labelled/1',
      '/definitions/workflows/edit/labelled/1',
      '/definitions/tasks/new',
      '/definitions/workflows',
    ]) {
      await page.goto(`${ui.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('input, select').first().waitFor();
      expect({ path, unlabelled: await unlabelled(page) }).toEqual({ path, unlabelled: [] });
    }
    await ui.shot('quality-labels');
  });

  it('fills and saves a task definition from the keyboard alone', async () => {
    const { page } = ui;
    await page.goto(`${ui.url}/definitions/tasks/new`);
    await page.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.type('keyboard_task');
    await page.keyboard.press('Tab');
    await page.keyboard.type('typed, not clicked');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/definitions\/tasks\/edit\/keyboard_task$/);
    const stored = (await ui.api('GET', '/api/metadata/taskdefs/keyboard_task')) as Record<string, unknown>;
    expect(stored).toMatchObject({ description: 'typed, not clicked', retryCount: 7 });
    await ui.shot('quality-keyboard');
  });

  it('pages a list of 1,000 definitions 100 rows at a time', async () => {
    await ui.api(
      'POST',
      '/api/metadata/taskdefs',
      Array.from({ length: 1000 }, (_, i) => ({ name: `many_${String(i).padStart(4, '0')}` })),
    );
    const total = ((await ui.api('GET', '/api/metadata/taskdefs')) as unknown[]).length;
    expect(total).toBeGreaterThanOrEqual(1000);
    const { page } = ui;
    await page.goto(`${ui.url}/definitions/tasks`);
    const pager = page.getByRole('navigation', { name: 'Task definitions pages' });
    await pager.waitFor();
    expect(await pager.textContent()).toContain(`1–100 of ${total}`);
    expect(await page.getByRole('table', { name: 'Task definitions' }).locator('tbody tr').count()).toBe(100);
    await pager.getByRole('button', { name: 'Next' }).click();
    expect(await pager.textContent()).toContain(`101–200 of ${total}`);
    await ui.shot('quality-paged-list');
  });
});
