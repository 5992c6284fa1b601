/**
 * A list's filter box: `useFilter()` holds the text typed and tells whether a row's fields contain
 * it (ignoring case; the list is filtered a moment behind the typing, so typing stays quick), and
 * `FilterBox` is its label and search field, for the page's toolbar.
 */
import { useDeferredValue, useState } from 'react';

export interface Filter {
  text: string;
  setText: (text: string) => void;
  /** Whether the fields, joined by spaces, contain the text typed (any row when it is empty). */
  matches: (...fields: string[]) => boolean;
}

export function useFilter(): Filter {
  const [text, setText] = useState('');
  const wanted = useDeferredValue(text.trim().toLowerCase());
  const matches = (...fields: string[]) => wanted === '' || fields.join(' ').toLowerCase().includes(wanted);
  return { text, setText, matches };
}

export function FilterBox({ id, label, filter }: { id: string; label: string; filter: Filter }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" value={filter.text} onChange={(e) => filter.setText(e.target.value)} />
    </>
  );
}
