// Paging a long list: the slice a page shows, clamped to the pages that exist.
import { describe, expect, it } from 'vitest';
import { pageOf } from '../../../ui/src/logic/paging.ts';

describe('pageOf', () => {
  it('slices 1,000 rows into ten pages of 100', () => {
    expect(pageOf(1000, 0, 100)).toEqual({ page: 0, pages: 10, from: 0, to: 100 });
    expect(pageOf(1000, 9, 100)).toEqual({ page: 9, pages: 10, from: 900, to: 1000 });
  });

  it('clamps a page past the end (a filter shortened the list) and an empty list to one empty page', () => {
    expect(pageOf(150, 5, 100)).toEqual({ page: 1, pages: 2, from: 100, to: 150 });
    expect(pageOf(0, 3, 100)).toEqual({ page: 0, pages: 1, from: 0, to: 0 });
    expect(pageOf(10, -1, 100)).toEqual({ page: 0, pages: 1, from: 0, to: 10 });
  });
});
