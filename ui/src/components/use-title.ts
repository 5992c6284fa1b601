/**
 * The browser tab's title for the page shown: `Executions – Conductor`, `order_flow v2 – Workflow
 * – Conductor`, so tabs and history entries say which page they are.
 */
import { useEffect } from 'react';

export const titleOf = (page: string) => `${page} – Conductor`;

export function useTitle(page: string) {
  useEffect(() => {
    document.title = titleOf(page);
  }, [page]);
}
