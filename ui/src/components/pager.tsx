/**
 * Client-side paging of a long list: 100 rows a page with Previous / Next, so a list of 1,000
 * definitions draws a page's worth of rows, not all of them. A page past the end (after a
 * filter) shows the last one.
 */
import { useState } from 'react';
import { pageOf } from '../logic/paging.ts';

export const PAGE_SIZE = 100;

export function usePaged<T>(rows: readonly T[], label: string) {
  const [page, setPage] = useState(0);
  const total = rows.length;
  const current = pageOf(total, page, PAGE_SIZE);
  const visible = rows.slice(current.from, current.to);
  const pager =
    total > PAGE_SIZE ? (
      <nav className="toolbar" aria-label={`${label} pages`}>
        <button type="button" disabled={current.page === 0} onClick={() => setPage(current.page - 1)}>
          Previous
        </button>
        <span>
          {current.from + 1}–{current.to} of {total}
        </span>
        <button
          type="button"
          disabled={current.page >= current.pages - 1}
          onClick={() => setPage(current.page + 1)}
        >
          Next
        </button>
      </nav>
    ) : null;
  return { visible, pager };
}
