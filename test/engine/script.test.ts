import { expect, test } from 'vitest';

test('resolve', () => {
  console.log(import.meta.url, typeof import.meta.resolve);
  console.log(import.meta.resolve?.('tsx/esm/api'));
  expect(1).toBe(1);
});
