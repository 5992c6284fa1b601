/** The one definition of a textual content type, shared by the node:http and Lambda adapters. */
import { describe, expect, it } from 'vitest';
import { isTextual } from '../../lib/http/content-types.ts';

describe('isTextual', () => {
  it.each([
    'text/plain; charset=utf-8',
    'application/json',
    'application/problem+json',
    'application/x-www-form-urlencoded',
    'application/xml',
    'application/javascript',
  ])('takes %s as text', (type) => {
    expect(isTextual(type)).toBe(true);
  });

  it.each(['application/octet-stream', 'image/png', '', undefined, null])('takes %s as bytes', (type) => {
    expect(isTextual(type)).toBe(false);
  });
});
