/** Driving the CodeMirror JSON editor from a browser test. */
import type { Page } from 'playwright-core';

/** Replaces the editor's whole text (inserted as text, so no auto-closed brackets are added). */
export async function setEditorText(page: Page, text: string, label = 'Schema JSON'): Promise<void> {
  const content = page.getByLabel(label, { exact: true });
  await content.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** The editor's text, line by line as CodeMirror renders it. */
export async function editorText(page: Page, label = 'Schema JSON'): Promise<string> {
  return page
    .getByLabel(label, { exact: true })
    .locator('.cm-line')
    .evaluateAll((lines) => lines.map((line) => line.textContent ?? '').join('\n'));
}
